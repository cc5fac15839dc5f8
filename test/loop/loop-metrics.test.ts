import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CategoryShares,
  type AssembledContext,
  callWithContextRetry,
  type ContextManager,
  createContextManager,
  RetryError,
  toModelMessages,
} from '../../src/loop/index.js';
import { renderMetrics } from '../../src/observability/index.js';
import { type ChatServer, startChatServer } from './helpers/chat-server.js';

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** One sample of the shared registry's text exposition; 0 when the series does not exist yet. */
async function sample(name: string, labels: Record<string, string> = {}): Promise<number> {
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',');
  for (const line of (await renderMetrics()).split('\n')) {
    const m = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = (m[2] ?? '').split(',').filter(Boolean).sort().join(',');
    if (got === want) return Number(m[3]);
  }
  return 0;
}

/** Reads every named sample, runs `act`, and returns how much each one moved. */
async function deltas<T extends Record<string, [string, Record<string, string>?]>>(
  series: T,
  act: () => Promise<void>,
): Promise<Record<keyof T, number>> {
  const before: Record<string, number> = {};
  for (const [key, [name, labels]] of Object.entries(series)) before[key] = await sample(name, labels);
  await act();
  const moved: Record<string, number> = {};
  for (const [key, [name, labels]] of Object.entries(series)) moved[key] = (await sample(name, labels)) - (before[key] ?? 0);
  return moved as Record<keyof T, number>;
}

async function loop(limitTokens: number, shares: Partial<CategoryShares> = {}): Promise<ContextManager> {
  const manager = await createContextManager({ limitTokens, reserveTokens: 0, recentTurns: 1, compactEveryTurns: 0, shares });
  manager.record({ kind: 'system', text: 'You are a coding agent. '.repeat(100) });
  manager.record({ kind: 'user', text: 'Fix the bug in the parser module. '.repeat(50) });
  for (let t = 0; t < 4; t += 1) {
    manager.record({
      kind: 'assistant',
      text: `step ${t}`,
      toolCalls: [{ id: `c${t}`, name: 'run', args: { command: `pytest -k t${t}` } }],
    });
    const output = Array.from({ length: 300 }, (_, i) => `line ${t} ${i} some output text`).join('\n');
    manager.record({ kind: 'tool', callId: `c${t}`, name: 'run', text: output });
  }
  return manager;
}

const ASSEMBLY = {
  compacted: ['baton_loop_assemblies_total', { compacted: 'true' }],
  appended: ['baton_loop_assemblies_total', { compacted: 'false' }],
  durations: ['baton_loop_assembly_duration_seconds_count'],
  everyDuration: ['baton_loop_assembly_duration_seconds_bucket', { le: '+Inf' }],
  tokenCount: ['baton_loop_context_tokens_count'],
  tokenSum: ['baton_loop_context_tokens_sum'],
  utilizationCount: ['baton_loop_budget_utilization_count'],
  utilizationSum: ['baton_loop_budget_utilization_sum'],
  kept: ['baton_loop_sections_total', { action: 'kept' }],
  trimmed: ['baton_loop_sections_total', { action: 'trimmed' }],
  summarized: ['baton_loop_sections_total', { action: 'summarized' }],
  dropped: ['baton_loop_sections_total', { action: 'dropped' }],
} satisfies Record<string, [string, Record<string, string>?]>;

describe('loop metrics in the shared registry', () => {
  it('counts assemblies, their duration, size, budget share and what happened to each section', async () => {
    // System and task may each take most of a small budget: the packer has to trim them.
    const tight = await loop(600, { system: 0.9, goal: 0.9 });
    const roomy = await loop(6000);
    const built: AssembledContext[] = [];
    const moved = await deltas(ASSEMBLY, async () => {
      built.push(tight.assemble(), roomy.assemble(), roomy.assemble());
    });
    // The tight budget cuts sections; the roomy one compacts once, then only appends.
    expect(built.map((c) => c.compacted)).toEqual([true, true, false]);
    const count = (action: string) => built.reduce((n, c) => n + c.sections.filter((s) => s.action === action).length, 0);
    expect(count('trimmed')).toBeGreaterThan(0);
    expect(moved.compacted).toBe(2);
    expect(moved.appended).toBe(1);
    expect(moved.durations).toBe(3);
    expect(moved.everyDuration).toBe(3);
    expect(moved.tokenCount).toBe(3);
    expect(moved.tokenSum).toBe(built.reduce((n, c) => n + c.tokens, 0));
    expect(moved.utilizationCount).toBe(3);
    expect(moved.utilizationSum).toBeCloseTo(
      built.reduce((n, c) => n + c.tokens / c.budget, 0),
      9,
    );
    expect(moved.kept).toBe(count('kept'));
    expect(moved.trimmed).toBe(count('trimmed'));
    expect(moved.summarized).toBe(count('summarized'));
    expect(moved.dropped).toBe(built.reduce((n, c) => n + c.dropped.length, 0));
    const text = await renderMetrics();
    // Every action is exported from the start, and the duration buckets reach down to 0.1 ms.
    expect(text).toContain('baton_loop_sections_total{action="dropped"}');
    expect(text).toContain('baton_loop_assembly_duration_seconds_bucket{le="0.0001"}');
    expect(text).toContain('# TYPE baton_loop_budget_utilization histogram');
  });

  it('records nothing for a manager made with metrics: false', async () => {
    const quiet = await createContextManager({ limitTokens: 6000, reserveTokens: 0, metrics: false });
    quiet.record({ kind: 'system', text: 'You are a coding agent.' });
    quiet.record({ kind: 'user', text: 'Fix the parser.' });
    const moved = await deltas(ASSEMBLY, async () => {
      expect(quiet.assemble().tokens).toBeGreaterThan(0);
    });
    expect(Object.values(moved).every((n) => n === 0)).toBe(true);
  });

  it('counts each retry by error kind and attempt, and a call that failed for good by its last error', async () => {
    const model = () => createOpenAICompatible({ name: 'local', baseURL: server?.baseURL ?? '', apiKey: 'test' }).chatModel('local-model');
    const call = (manager: ContextManager) =>
      callWithContextRetry(
        manager,
        (context) =>
          generateText({ model: model(), messages: toModelMessages(context.messages), maxRetries: 0, allowSystemInMessages: true }),
        { initialDelayMs: 5, jitter: 0 },
      );
    const series = {
      rate1: ['baton_loop_model_retries_total', { kind: 'rate_limited', attempt: '1' }],
      rate2: ['baton_loop_model_retries_total', { kind: 'rate_limited', attempt: '2' }],
      server1: ['baton_loop_model_retries_total', { kind: 'server_error', attempt: '1' }],
      server2: ['baton_loop_model_retries_total', { kind: 'server_error', attempt: '2' }],
      failedRate: ['baton_loop_model_failures_total', { kind: 'rate_limited' }],
      failedOther: ['baton_loop_model_failures_total', { kind: 'other' }],
      assemblies: ['baton_loop_assemblies_total', { compacted: 'true' }],
    } satisfies Record<string, [string, Record<string, string>?]>;

    // 429, then 500, then success: two retries, no failure.
    let moved = await deltas(series, async () => {
      server = await startChatServer([
        { status: 429, error: 'RESOURCE_EXHAUSTED: quota exceeded', headers: { 'retry-after': '0' } },
        { status: 500, error: 'INTERNAL: backend error' },
        { text: 'Fixed.' },
      ]);
      expect((await call(await loop(6000))).text).toBe('Fixed.');
    });
    expect(moved).toMatchObject({ rate1: 1, rate2: 0, server1: 0, server2: 1, failedRate: 0, failedOther: 0 });
    // Each attempt assembled its own (smaller) context, and every one of those builds was counted.
    expect(moved.assemblies).toBe(3);
    await server?.close();

    // 429 every time: two retries, then one failure labelled by the last error.
    moved = await deltas(series, async () => {
      server = await startChatServer([{ status: 429, error: 'RESOURCE_EXHAUSTED: quota exceeded' }]);
      await expect(call(await loop(6000))).rejects.toBeInstanceOf(RetryError);
    });
    expect(moved).toMatchObject({ rate1: 1, rate2: 1, server1: 0, server2: 0, failedRate: 1, failedOther: 0 });
    await server?.close();

    // A 400 is not retried: no retry, one failure of kind "other".
    moved = await deltas(series, async () => {
      server = await startChatServer([{ status: 400, error: 'bad request: unknown field' }]);
      const error = await call(await loop(6000)).catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(RetryError);
      expect(server.requests).toHaveLength(1);
    });
    expect(moved).toMatchObject({ rate1: 0, rate2: 0, server1: 0, server2: 0, failedRate: 0, failedOther: 1 });
  });
});
