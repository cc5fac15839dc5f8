/**
 * Managed context for any AI SDK 6 call through a language-model middleware: wrap the model once
 * and every generateText/streamText call on it (tools, many steps) sends Baton's assembled context;
 * a 429, 5xx or context overflow is retried with a smaller one.
 *
 *   BATON_EXAMPLE_BASE_URL=http://127.0.0.1:11434/v1 node --import tsx examples/loop/ai-sdk-middleware.ts
 */
import { readFile } from 'node:fs/promises';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { z } from 'zod';
import { batonContextMiddleware, createContextManager } from 'agent-baton';

const provider = createOpenAICompatible({
  name: 'example',
  baseURL: process.env.BATON_EXAMPLE_BASE_URL ?? 'http://127.0.0.1:11434/v1',
  apiKey: process.env.BATON_EXAMPLE_API_KEY ?? 'none',
});
// One manager and one wrapped model per conversation.
const manager = await createContextManager({ limitTokens: 32_000 });
const model = wrapLanguageModel({
  model: provider.chatModel(process.env.BATON_EXAMPLE_MODEL ?? 'qwen2.5-coder'),
  middleware: batonContextMiddleware(manager),
});

const result = await generateText({
  model,
  system: 'You are a careful coding agent.',
  prompt: 'Read package.json and summarize the scripts.',
  tools: {
    read_file: tool({
      description: 'Read a file',
      inputSchema: z.object({ path: z.string() }),
      execute: ({ path }) => readFile(path, 'utf8'),
    }),
  },
  stopWhen: stepCountIs(10),
});
console.log(result.text);
console.error(`${manager.turnCount} turns recorded; the last prompt was ${manager.assemble().tokens} tokens`);
