/**
 * The same managed context for an AI SDK 6 agent: one line, `prepareStep: batonPrepareStep(manager)`.
 * Each step's model call sends Baton's assembled context, and a 429, 5xx or context overflow is
 * retried with a smaller one (the SDK's own retries never resend the same prompt).
 *
 *   BATON_EXAMPLE_BASE_URL=http://127.0.0.1:11434/v1 node --import tsx examples/loop/ai-sdk-agent.ts
 */
import { readFile } from 'node:fs/promises';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { batonPrepareStep, createContextManager } from 'agent-baton';

const provider = createOpenAICompatible({
  name: 'example',
  baseURL: process.env.BATON_EXAMPLE_BASE_URL ?? 'http://127.0.0.1:11434/v1',
  apiKey: process.env.BATON_EXAMPLE_API_KEY ?? 'none',
});
const manager = await createContextManager({ limitTokens: 32_000 });

const result = await generateText({
  model: provider.chatModel(process.env.BATON_EXAMPLE_MODEL ?? 'qwen2.5-coder'),
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
  prepareStep: batonPrepareStep(manager),
});
console.log(result.text);
