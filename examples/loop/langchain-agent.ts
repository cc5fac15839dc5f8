/**
 * Managed context for a LangChain.js v1 agent: one middleware in `createAgent`. Every model call
 * of the agent gets Baton's assembled context, and a 429, 5xx or context overflow is retried with
 * a smaller one (the chat model's own retries are turned off for those calls).
 *
 *   npm install agent-baton langchain @langchain/core @langchain/openai
 *   BATON_EXAMPLE_BASE_URL=http://127.0.0.1:11434/v1 node --import tsx examples/loop/langchain-agent.ts
 */
import { readFile } from 'node:fs/promises';
import { ChatOpenAI } from '@langchain/openai';
import { batonLangChainMiddleware, createContextManager } from 'agent-baton';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';

const manager = await createContextManager({ limitTokens: 32_000 });
const model = new ChatOpenAI({
  model: process.env.BATON_EXAMPLE_MODEL ?? 'qwen2.5-coder',
  apiKey: process.env.BATON_EXAMPLE_API_KEY ?? 'none',
  configuration: { baseURL: process.env.BATON_EXAMPLE_BASE_URL ?? 'http://127.0.0.1:11434/v1' },
});
const readFileTool = tool(async ({ path }: { path: string }) => readFile(path, 'utf8'), {
  name: 'read_file',
  description: 'Read a file',
  schema: z.object({ path: z.string() }),
});

const agent = createAgent({
  model,
  tools: [readFileTool],
  systemPrompt: 'You are a careful coding agent.',
  middleware: [await batonLangChainMiddleware(manager)],
});
const result = await agent.invoke({ messages: [{ role: 'user', content: 'Read package.json and summarize the scripts.' }] });
console.log(result.messages.at(-1)?.text);
