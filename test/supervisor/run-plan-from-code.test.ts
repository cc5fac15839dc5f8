/**
 * runPlan as a library user calls it: no hand-made WorkspaceOps (Baton's own is the default), the
 * config's shapes taken as they are, input it cannot run with refused at once and by name, and an
 * AbortSignal that ends a run whose agent hangs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PreContextConfig } from '../../src/config/index.js';
import { isBatonError } from '../../src/errors/index.js';
import { MemoryLedger } from '../../src/ledger/index.js';
import { silentLogger } from '../../src/observability/index.js';
import { parsePlan, runPlan, type RunPlanOptions } from '../../src/supervisor/index.js';
import { agent, makeWorkspace } from './helpers.js';

const DRAFT = parsePlan(
  `
tasks:
  - id: draft
    instructions: Write a draft.
    acceptance_criteria:
      - description: draft.txt exists
        check: test -f draft.txt
`,
  'plan.yaml',
);

async function failure(run: Promise<unknown>): Promise<Error> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error('expected runPlan to reject');
  return error;
}

describe('runPlan without a workspace of the caller', () => {
  it('measures and checks in workspaceDir with Baton’s own workspace, and takes config.preContext as is', async () => {
    const dir = makeWorkspace();
    const ledger = new MemoryLedger();
    // loadConfig's shape (flat limits): pre-context off, so the second provider gets no switch block.
    const preContext: PreContextConfig = { enabled: false, types: ['retry'], maxLines: 10, maxFiles: 3, helperMaxAttempts: 2 };
    const options: RunPlanOptions = {
      ledger,
      providers: [agent('limited', 'rate-limited.mjs'), agent('fixer', 'fixer.mjs')],
      workspaceDir: dir,
      preContext,
      logger: silentLogger,
    };
    const report = await runPlan(DRAFT, options);
    const [task] = report.tasks;
    expect(task?.status).toBe('completed');
    expect(task?.attempts.map((a) => [a.provider, a.outcome])).toEqual([
      ['limited', 'rate_limited'],
      ['fixer', 'ok'],
    ]);
    expect(task?.attempts[1]?.files_created).toEqual(['draft.txt']);
    expect(task?.attempts[1]?.injected_context ?? '').toBe('');
  });
});

describe('runPlan input it cannot run with', () => {
  it('refuses a workspaceDir that does not exist, or is a file, before writing to the ledger', async () => {
    const ledger = new MemoryLedger();
    const missing = path.join(makeWorkspace(), 'nope');
    const error = await failure(runPlan(DRAFT, { ledger, providers: [agent('fixer', 'fixer.mjs')], workspaceDir: missing }));
    expect(isBatonError(error, 'WORKSPACE_NOT_SET')).toBe(true);
    expect(error.message).toBe(
      `runPlan: workspaceDir ${missing} does not exist: agents work and checks run in it, so it must be an existing folder`,
    );
    const file = path.join(makeWorkspace(), 'file.txt');
    writeFileSync(file, 'x');
    const notFolder = await failure(runPlan(DRAFT, { ledger, providers: [agent('fixer', 'fixer.mjs')], workspaceDir: file }));
    expect(notFolder.message).toMatch(/^runPlan: workspaceDir .*file\.txt is not a folder/);
    expect(await ledger.getTask('draft')).toBeUndefined();
  });

  it('names concurrency without sites (the tasks would share one folder)', async () => {
    const dir = makeWorkspace();
    const shared = await failure(
      runPlan(DRAFT, { ledger: new MemoryLedger(), providers: [agent('fixer', 'fixer.mjs')], workspaceDir: dir, concurrency: 2 }),
    );
    expect(isBatonError(shared, 'INPUT_INVALID')).toBe(true);
    expect(shared.message).toBe(
      `runPlan: concurrency 2 needs sites (a working copy per task, such as git worktrees); without them tasks would share ${dir}`,
    );
  });
});

describe('runPlan and its AbortSignal', () => {
  it('ends the run, and the hanging agent, once the signal aborts mid-dispatch', async () => {
    const dir = makeWorkspace();
    const marker = path.join(dir, '..', `${path.basename(dir)}-sleeper.pid`);
    const abort = new AbortController();
    const report = await runPlan(DRAFT, {
      ledger: new MemoryLedger(),
      providers: [agent('sleeper', 'sleeper.mjs', { SLEEPER_MARKER: marker })],
      workspaceDir: dir,
      logger: silentLogger,
      signal: abort.signal,
      onEvent: (event) => {
        if (event.type === 'dispatch-start') void waitFor(() => existsSync(marker)).then(() => abort.abort());
      },
    });
    expect(report.tasks[0]?.status).not.toBe('completed');
    const pid = Number(readFileSync(marker, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  }, 60_000);

  it('returns at once when the signal has already aborted, running nothing', async () => {
    const abort = new AbortController();
    abort.abort();
    const starts: string[] = [];
    const report = await runPlan(DRAFT, {
      ledger: new MemoryLedger(),
      providers: [agent('fixer', 'fixer.mjs')],
      workspaceDir: makeWorkspace(),
      signal: abort.signal,
      onEvent: (event) => void starts.push(event.type),
    });
    expect(starts).toEqual([]);
    expect(report.tasks[0]?.attempts).toEqual([]);
  });
});

async function waitFor(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 10));
}
