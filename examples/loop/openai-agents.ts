/**
 * Managed context for an OpenAI Agents JS agent: wrap its model once. Every model call of the run
 * gets Baton's assembled context, and a 429, 5xx or context overflow is retried with a smaller
 * one. The OpenAI client is made with `maxRetries: 0`: its own retries would resend the same prompt.
 *
 *   npm install agent-baton @openai/agents openai
 *   BATON_EXAMPLE_BASE_URL=http://127.0.0.1:11434/v1 node --import tsx examples/loop/openai-agents.ts
 */
import { readFile } from 'node:fs/promises';
import { Agent, OpenAIChatCompletionsModel, run, tool } from '@openai/agents';
import { batonAgentsModel, createContextManager } from 'agent-baton';
import OpenAI from 'openai';
import { z } from 'zod';

const manager = await createContextManager({ limitTokens: 32_000 });
const client = new OpenAI({
  baseURL: process.env.BATON_EXAMPLE_BASE_URL ?? 'http://127.0.0.1:11434/v1',
  apiKey: process.env.BATON_EXAMPLE_API_KEY ?? 'none',
  maxRetries: 0,
});
const model = batonAgentsModel(manager, new OpenAIChatCompletionsModel(client, process.env.BATON_EXAMPLE_MODEL ?? 'qwen2.5-coder'));

const agent = new Agent({
  name: 'coder',
  instructions: 'You are a careful coding agent.',
  model,
  tools: [
    tool({
      name: 'read_file',
      description: 'Read a file',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => readFile(path, 'utf8'),
    }),
  ],
});
const result = await run(agent, 'Read package.json and summarize the scripts.', { maxTurns: 10 });
console.log(result.finalOutput);
