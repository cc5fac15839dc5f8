import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { createLlmSummarizer, SUMMARY_PROMPT_VERSION, SUMMARY_SYSTEM_PROMPT } from '../../src/summarize/index.js';
import { type FakeLlm, type Reply, startFakeLlm, systemOf } from '../panel/fake-llm-server.js';

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

async function summarizerAgainst(reply: Reply) {
  llm = await startFakeLlm(() => reply);
  const model = createOpenAICompatible({ name: 'test', baseURL: llm.baseURL }).chatModel('qwen-turbo');
  return createLlmSummarizer({ model, modelId: 'openai-compatible:qwen-turbo', timeoutMs: 5_000 });
}

describe('createLlmSummarizer', () => {
  it('sends the dedicated summary prompt with the target length and the text', async () => {
    const summarizer = await summarizerAgainst({ text: '- grip\n- footwork' });
    expect(await summarizer.summarize('A long answer about grip and footwork.', { targetTokens: 40 })).toBe('- grip\n- footwork');
    const request = llm!.requests[0]!;
    expect(systemOf(request)).toBe(SUMMARY_SYSTEM_PROMPT);
    expect(request.messages.at(-1)?.content).toContain('(40 tokens, 20-30% of its length)');
    expect(request.messages.at(-1)?.content).toContain('A long answer about grip and footwork.');
    expect(summarizer.id).toBe(`openai-compatible:qwen-turbo@summary-prompt/${SUMMARY_PROMPT_VERSION}`);
  });

  it('fails with PROVIDER_FAILED, once, when the model errors', async () => {
    const summarizer = await summarizerAgainst({ status: 503 });
    const error = await summarizer.summarize('text').catch((e: unknown) => e);
    expect(isBatonError(error, 'PROVIDER_FAILED')).toBe(true);
    expect(llm!.requests).toHaveLength(1);
  });

  it('fails with PROVIDER_FAILED on an empty summary', async () => {
    const summarizer = await summarizerAgainst({ text: '   ' });
    expect(isBatonError(await summarizer.summarize('text').catch((e: unknown) => e), 'PROVIDER_FAILED')).toBe(true);
  });
});
