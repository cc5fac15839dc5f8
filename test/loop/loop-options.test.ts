import { describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import {
  batonAgentsModel,
  batonContextMiddleware,
  batonLangChainMiddleware,
  batonPrepareStep,
  callWithContextRetry,
  ContextManager,
  computeDelayMs,
  createContextManager,
  type LoopEvent,
  MIN_BUDGET_TOKENS,
  retry,
} from '../../src/loop/index.js';

/** The message of the BatonError `run` throws (or rejects with), and its code. */
async function failure(run: () => unknown): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  try {
    await run();
  } catch (error) {
    if (isBatonError(error)) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('expected an error');
}

function loopOf(manager: ContextManager, turns: number, goal = 'Fix the failing test in tests/test_parser.py.'): ContextManager {
  manager.record({ kind: 'system', text: 'You are a careful coding agent. Read before you edit. '.repeat(40) });
  manager.record({ kind: 'user', text: goal });
  for (let t = 0; t < turns; t += 1) {
    manager.record({ kind: 'assistant', text: `Step ${t}.`, toolCalls: [{ id: `c${t}`, name: 'run', args: { command: 'pytest -x' } }] });
    manager.record({ kind: 'tool', callId: `c${t}`, name: 'run', text: 'E   AssertionError: 2 != 3\n'.repeat(200), exitCode: 1 });
  }
  return manager;
}

describe('small budgets', () => {
  it('works with a 2k local model: a quarter of the window is the answer reserve, the prompt fits the rest', async () => {
    const manager = loopOf(await createContextManager({ limitTokens: 2048 }), 20);
    expect(manager.options.budget).toBe(1536);
    const context = manager.assemble();
    expect(context.tokens).toBeLessThanOrEqual(1536);
    expect(context.text).toContain('Fix the failing test in tests/test_parser.py.');
  });

  it(`accepts the smallest budget (${MIN_BUDGET_TOKENS}) whatever the task's text, and says which numbers to change below it`, async () => {
    const base64Task = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 7919) % 256)).toString('base64');
    const smallest = loopOf(new ContextManager({ limitTokens: MIN_BUDGET_TOKENS, reserveTokens: 0 }), 12, base64Task);
    expect(smallest.assemble().tokens).toBeLessThanOrEqual(MIN_BUDGET_TOKENS);

    const tooSmall = await failure(() => createContextManager({ limitTokens: 600 }));
    expect(tooSmall.code).toBe('CONFIG_INVALID');
    expect(tooSmall.message).toBe(
      'ContextManager options: limitTokens: limitTokens (600) less reserveTokens (150) leaves a prompt budget of 450 tokens; the smallest that works is 512: raise limitTokens to at least 682 or set reserveTokens to at most 88',
    );
    const reserve = await failure(() => createContextManager({ limitTokens: 2048, reserveTokens: 4096 }));
    expect(reserve.message).toBe('ContextManager options: reserveTokens: reserveTokens (4096) must be less than limitTokens (2048)');
    const assembled = await failure(() => smallest.assemble({ budget: 300 }));
    expect(assembled.message).toContain('ContextManager.assemble options: budget: Too small: expected number to be >=512; got 300');
  });

  it('names numbers that conflict', async () => {
    const water = await failure(() => createContextManager({ lowWater: 0.95 }));
    expect(water.message).toBe(
      'ContextManager options: lowWater: lowWater (0.95) must be below highWater (0.9): a compaction aims under the mark that starts it',
    );
  });
});

describe('unknown and misspelled options are errors that name the key and the spelling expected', () => {
  it('createContextManager, its shares, assemble and record', async () => {
    expect((await failure(() => createContextManager({ limitToken: 8000 } as never))).message).toBe(
      'createContextManager options: unknown key "limitToken" (did you mean "limitTokens"?)',
    );
    expect((await failure(() => createContextManager({ reserve_tokens: 100 } as never))).message).toBe(
      'createContextManager options: unknown key "reserve_tokens" (did you mean "reserveTokens"?)',
    );
    expect((await failure(() => createContextManager({ shares: { sytem: 0.3 } } as never))).message).toBe(
      'createContextManager options: shares: unknown key "sytem" (did you mean "system"?)',
    );
    const manager = await createContextManager({ limitTokens: 8000 });
    expect((await failure(() => manager.assemble({ budgt: 1000 } as never))).message).toBe(
      'ContextManager.assemble options: unknown key "budgt" (did you mean "budget"?)',
    );
    const record = await failure(() => manager.record({ kind: 'tool', call_id: 'c1', name: 'run', text: 'ok' } as unknown as LoopEvent));
    expect(record.code).toBe('INPUT_INVALID');
    expect(record.message).toContain('unknown key "call_id" (did you mean "callId"?)');
    expect(record.message).toContain('callId');
  });

  it('retry, computeDelayMs and callWithContextRetry', async () => {
    expect((await failure(() => retry(async () => 1, { maxRetry: 3 } as never))).message).toBe(
      'retry: options: unknown key "maxRetry" (did you mean "maxRetries"?)',
    );
    expect((await failure(() => computeDelayMs(0))).message).toBe('computeDelayMs: attempt: Too small: expected number to be >=1; got 0');
    const manager = await createContextManager({ limitTokens: 8000 });
    expect((await failure(() => callWithContextRetry(manager, async () => 1, { ladders: [] } as never))).message).toBe(
      'callWithContextRetry: options: unknown key "ladders" (did you mean "ladder"?)',
    );
    expect((await failure(() => callWithContextRetry({} as ContextManager, async () => 1))).message).toBe(
      'callWithContextRetry: manager: expected a ContextManager (from createContextManager); got {}',
    );
  });

  it('the framework adapters, when they are made', async () => {
    const manager = await createContextManager({ limitTokens: 8000 });
    expect((await failure(() => batonContextMiddleware(manager, { maxRetrys: 1 } as never))).message).toBe(
      'batonContextMiddleware: options: unknown key "maxRetrys" (did you mean "maxRetries"?)',
    );
    // The call's own abort signal is used; a signal here is a mistake worth naming.
    expect((await failure(() => batonPrepareStep(manager, { signal: new AbortController().signal } as never))).message).toContain(
      'batonPrepareStep: options: unknown key "signal"',
    );
    expect((await failure(() => batonLangChainMiddleware(manager, { assemble: { budget: 100 } }))).message).toContain(
      'batonLangChainMiddleware: options.assemble.budget: Too small: expected number to be >=512; got 100',
    );
    expect((await failure(() => batonAgentsModel(manager, {} as never))).message).toBe(
      'batonAgentsModel: model: expected an OpenAI Agents JS Model (new OpenAIResponsesModel(client, name), new OpenAIChatCompletionsModel(client, name)); got {}',
    );
    expect((await failure(() => batonContextMiddleware(undefined as unknown as ContextManager))).message).toBe(
      'batonContextMiddleware: manager: expected a ContextManager (from createContextManager)',
    );
  });
});
