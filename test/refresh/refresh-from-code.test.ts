import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { type Ledger, MemoryLedger } from '../../src/ledger/index.js';
import { GitCache, refreshContext, ResultCache, sentTokens } from '../../src/refresh/index.js';
import type { RefreshOptions } from '../../src/refresh/index.js';
import { makeRepo, type Loose } from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function repo() {
  const r = makeRepo();
  cleanups.push(r.cleanup);
  return r;
}

async function ledgerWith(status: 'in_progress' | 'completed'): Promise<MemoryLedger> {
  const ledger = new MemoryLedger();
  await ledger.createTask({
    id: 't1',
    title: 'Add CSV export',
    status,
    acceptanceCriteria: [{ description: 'CSV tests pass' }],
    ...(status === 'completed' ? { resultSummary: 'export.csv written by src/csv.ts' } : {}),
  });
  await ledger.createTask({ id: 't2', title: 'Add JSON export', status: 'pending' });
  await ledger.appendDispatch({ taskId: 't1', attempt: 1, provider: 'claude', status: 'completed', outcome: 'ok', result: 'done' });
  return ledger;
}

function files(result: { context: Record<string, unknown> }): string[] {
  // standard's modified_files: ["?? first.ts", ...]
  return ((result.context as Loose).modified_files ?? []).map((line: string) => line.split(' ').at(-1));
}

describe('refreshContext misuse', () => {
  it('names the missing ledger and leaves no rejection behind', async () => {
    const r = repo();
    const error = await refreshContext({ workspace: r.dir } as RefreshOptions).catch((e: unknown) => e);
    expect(isBatonError(error, 'INPUT_INVALID')).toBe(true);
    expect((error as Error).message).toMatch(/^refreshContext: ledger must be a Ledger \(await openLedger.*got undefined$/);
    const noWorkspace = await refreshContext({ ledger: new MemoryLedger() } as unknown as RefreshOptions).catch((e: unknown) => e);
    expect((noWorkspace as Error).message).toMatch(/^refreshContext: workspace must be the workspace folder's path/);
    // vitest fails the run on an unhandled rejection: reaching the end of the file is the assertion.
  });

  it('answers (with the writes only warned about) when the ledger throws synchronously on write', async () => {
    const r = repo();
    const ledger = await ledgerWith('in_progress');
    const throwing = new Proxy(ledger, {
      get(target, prop, receiver) {
        if (prop === 'createRecord' || prop === 'updateRecord') {
          return () => {
            throw new Error('disk gone');
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    }) as Ledger;
    const result = await refreshContext({ workspace: r.dir, ledger: throwing, format: 'minimal' });
    expect((result.context as Loose).current_task.id).toBe('t1');
  });
});

describe('refreshContext freshness', () => {
  it('shows a change made a moment ago, call after call, without a cache of the caller', async () => {
    const r = repo();
    const ledger = await ledgerWith('in_progress');
    writeFileSync(path.join(r.dir, 'first.ts'), 'x');
    expect(files(await refreshContext({ workspace: r.dir, ledger, taskId: 't1' }))).toEqual(['first.ts']);
    writeFileSync(path.join(r.dir, 'second.ts'), 'y');
    const again = await refreshContext({ workspace: r.dir, ledger });
    expect(files(again)).toEqual(['first.ts', 'second.ts']);
    expect(again.metadata.cache.git).toBe('miss');
  });

  it('with a shared git cache, fresh: true reads git now (and a plain call then sees the new state)', async () => {
    const r = repo();
    const ledger = await ledgerWith('in_progress');
    const gitCache = new GitCache();
    await refreshContext({ workspace: r.dir, ledger, gitCache });
    writeFileSync(path.join(r.dir, 'late.ts'), 'z');
    // An unstaged edit leaves HEAD and the index as they were: the cached entry still answers.
    expect(files(await refreshContext({ workspace: r.dir, ledger, gitCache }))).toEqual([]);
    const fresh = await refreshContext({ workspace: r.dir, ledger, gitCache, fresh: true });
    expect(files(fresh)).toEqual(['late.ts']);
    expect(fresh.metadata.cache.git).toBe('miss');
    expect(files(await refreshContext({ workspace: r.dir, ledger, gitCache }))).toEqual(['late.ts']);
  });
});

describe('refreshContext for a completed task', () => {
  it.each(['minimal', 'standard', 'detailed', 'narrative'] as const)('%s: says it is completed, never to resume it', async (format) => {
    const r = repo();
    const result = await refreshContext({ workspace: r.dir, ledger: await ledgerWith('completed'), taskId: 't1', format });
    const prompt = result.continuation_prompt ?? '';
    expect(prompt).toContain('Task **Add CSV export** (Task ID: t1) is completed.');
    expect(prompt).toContain('This task is completed: there is no work to resume on it. Result: export.csv written by src/csv.ts');
    expect(prompt).toContain('Otherwise pick or create the next task, then call refresh_context with its task_id');
    expect(result.text).not.toMatch(/resuming work|Resume task|Resume From/);
    if (format === 'minimal') {
      expect((result.context as Loose).next_action).toBe(
        'Task t1 is completed: nothing to resume; review its result or pick the next open task.',
      );
    }
  });

  it('an open task still gets resume instructions', async () => {
    const r = repo();
    const result = await refreshContext({ workspace: r.dir, ledger: await ledgerWith('in_progress'), taskId: 't1' });
    expect(result.continuation_prompt).toContain('You are resuming work on **Add CSV export**');
  });
});

describe('token_estimate', () => {
  it('counts exactly what is sent, result-cache status included, for every format and every status', async () => {
    const r = repo();
    const ledger = await ledgerWith('in_progress');
    // A ledger version makes the result cache apply (the MCP server's case).
    const versioned = Object.assign(Object.create(ledger) as Ledger, { changeCounters: () => ({ external: 0, own: 0 }) });
    const resultCache = new ResultCache<unknown>();
    const gitCache = new GitCache();
    for (const format of ['minimal', 'standard', 'detailed', 'narrative'] as const) {
      for (const expected of ['miss', 'hit']) {
        const result = await refreshContext({ workspace: r.dir, ledger: versioned, format, resultCache, gitCache, audit: false });
        expect(result.metadata.cache.result).toBe(expected);
        expect(result.metadata.token_estimate).toBe(sentTokens(result.text, { ...result.context, metadata: result.metadata }));
      }
    }
  });
});
