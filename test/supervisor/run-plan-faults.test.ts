/**
 * runPlan's scheduler when things go wrong: a task another run completed while this one waited
 * for its claim is skipped (a scripted ledger whose claim completes the task before answering);
 * a task whose run throws is retried with backoff, never at once, then blocked with the error
 * as a failed attempt; an abort ends the run without another try; a site's final refusal blocks
 * the task at once, and what the commit policy flagged reaches the attempt and the report; a
 * task lease lost to another run stops this run's agent. Real
 * agent processes (test/supervisor/agents), the memory ledger.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Ledger, MemoryLedger } from '../../src/ledger/index.js';
import { silentLogger } from '../../src/observability/index.js';
import {
  parsePlan,
  runPlan,
  type SiteOutcome,
  type SupervisorEvent,
  TASK_RUN_RETRIES,
  TASK_RUN_RETRY_MS,
  type TaskSites,
  workspaceOps,
} from '../../src/supervisor/index.js';
import { agent, makeWorkspace, readAgentLog } from './helpers.js';

const onePlan = (id: string) =>
  parsePlan(
    `
tasks:
  - id: ${id}
    instructions: Write a draft.
    acceptance_criteria:
      - description: draft.txt exists
        check: test -f draft.txt
`,
    'plan.yaml',
  );

function setup() {
  const dir = makeWorkspace();
  const log = path.join(dir, '..', `${path.basename(dir)}-agents.jsonl`);
  return { dir, log, ledger: new MemoryLedger(), provider: agent('fixer', 'fixer.mjs', { AGENT_LOG: log }) };
}

/** The ledger, except that claiming `taskId` first completes it, as another run finishing it while this one waited would. */
function claimCompletesFirst(ledger: Ledger, taskId: string): Ledger {
  return new Proxy(ledger, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== 'claimTask' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (id: string, owner: string, leaseMs: number) => {
        if (id === taskId) await target.updateTask(id, { status: 'completed', resultSummary: 'done by the other run' });
        return (value as Ledger['claimTask']).call(target, id, owner, leaseMs);
      };
    },
  });
}

/**
 * The ledger, except that renewing `taskId`'s claim, once `lost()` says so, finds it held by
 * another run (this one stalled past its lease).
 */
function leaseLostOnRenewal(ledger: Ledger, taskId: string, lost: () => boolean): Ledger {
  let claims = 0;
  return new Proxy(ledger, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== 'claimTask' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (id: string, owner: string, leaseMs: number) => {
        if (id === taskId && ++claims > 1 && lost())
          return { ok: false, holder: { taskId, owner: 'other-run', leaseUntil: Date.now() + 60_000 } };
        return (value as Ledger['claimTask']).call(target, id, owner, leaseMs);
      };
    },
  });
}

async function waitFor(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** A fake clock: its sleep moves it and returns at once, so a backoff is decided, not waited for. */
function fakeClock() {
  let clock = Date.now();
  return {
    now: () => clock,
    sleep: async (ms: number) => {
      clock += ms;
    },
  };
}

/** Sites in `dir` whose open throws `error` each time, recording when (on `now`). */
function throwingSites(error: Error, now: () => number = () => performance.now()): { sites: TaskSites; opens: number[] } {
  const opens: number[] = [];
  return {
    opens,
    sites: {
      open: async () => {
        opens.push(now());
        throw error;
      },
    },
  };
}

/** Sites in `dir` whose completion comes to `outcome`. */
function sitesCompleting(dir: string, outcome: SiteOutcome): TaskSites {
  return {
    open: async () => ({ dir, workspace: workspaceOps(dir), complete: async () => outcome, release: async () => {} }),
  };
}

describe('runPlan when things go wrong', () => {
  it('skips, without running its agent, a task another run completed while this one waited for the claim', async () => {
    const { dir, log, ledger, provider } = setup();
    const events: SupervisorEvent[] = [];
    const report = await runPlan(onePlan('shared'), {
      ledger: claimCompletesFirst(ledger, 'shared'),
      providers: [provider],
      workspace: workspaceOps(dir),
      workspaceDir: dir,
      logger: silentLogger,
      onEvent: (e) => events.push(e),
    });
    expect(readAgentLog(log)).toEqual([]);
    expect(report.tasks.map((t) => [t.id, t.status, t.attempts.length])).toEqual([['shared', 'completed', 0]]);
    expect(events).toContainEqual({ type: 'task-skip', taskId: 'shared', status: 'completed', reason: 'completed by another run' });
    expect(await ledger.listDispatches({ taskId: 'shared' })).toMatchObject({ items: [] });
  });

  it('retries a task whose run throws after a growing backoff, never at once, then blocks it with the error as a failed attempt', async () => {
    const { dir, ledger, provider } = setup();
    const clock = fakeClock();
    const { sites, opens } = throwingSites(new Error('git fetch origin failed: the remote is gone'), clock.now);
    const report = await runPlan(onePlan('unlucky'), {
      ledger,
      providers: [provider],
      workspace: workspaceOps(dir),
      workspaceDir: dir,
      sites,
      pollMs: 20,
      logger: silentLogger,
      ...clock,
    });
    expect(opens).toHaveLength(TASK_RUN_RETRIES + 1);
    const gaps = opens.slice(1).map((at, i) => at - (opens[i] as number));
    // 1, 2, 4 s (±20 %) on the run's clock: doubling, and never at once.
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(TASK_RUN_RETRY_MS * 2 ** i * 0.8 - 5));
    const [task] = report.tasks;
    expect(task?.status).toBe('blocked');
    expect(task?.attempts).toMatchObject([{ attempt: 1, provider: 'none', outcome: 'failed' }]);
    const blocked = await ledger.getTask('unlucky');
    expect(blocked?.blockReason).toBe('Could not run the task (4 tries): git fetch origin failed: the remote is gone');
  });

  it('blocks a task whose workspace is gone (after the start: a missing workspaceDir is refused at once) with the error that names the folder', async () => {
    const { dir, ledger, provider } = setup();
    const gone = path.join(makeWorkspace(), 'no-such-folder');
    const report = await runPlan(onePlan('lost'), {
      ledger,
      providers: [provider],
      workspace: workspaceOps(gone),
      workspaceDir: dir,
      pollMs: 20,
      logger: silentLogger,
      ...fakeClock(),
    });
    expect(report.tasks[0]?.status).toBe('blocked');
    expect((await ledger.getTask('lost'))?.blockReason).toBe(`Could not run the task (4 tries): Workspace ${gone} is not a folder`);
  });

  it('ends at once when aborted while a thrown task waits for its retry, without trying it again', async () => {
    const { dir, ledger, provider } = setup();
    const stop = new AbortController();
    const { opens } = throwingSites(new Error('unreachable'));
    const sites: TaskSites = {
      open: async () => {
        opens.push(performance.now());
        // The run threw; the operator stops it during the backoff.
        setTimeout(() => stop.abort(), 10);
        throw new Error('unreachable');
      },
    };
    const report = await runPlan(onePlan('stopped'), {
      ledger,
      providers: [provider],
      workspace: workspaceOps(dir),
      workspaceDir: dir,
      sites,
      pollMs: 20,
      logger: silentLogger,
      signal: stop.signal,
    });
    expect(opens).toHaveLength(1);
    // Not a verdict: the task is left for the next run.
    expect(report.tasks[0]?.status).toBe('pending');
  });

  it("blocks a task at once when its site's refusal is final, with the refusal as the reason", async () => {
    const { dir, log, ledger, provider } = setup();
    const error = `out/a.txt is an untracked file in ${dir} (left as it was), where the task's result adds a file: move it away or commit it`;
    const report = await runPlan(onePlan('collides'), {
      ledger,
      providers: [provider],
      workspace: workspaceOps(dir),
      workspaceDir: dir,
      sites: sitesCompleting(dir, { kind: 'refused', into: 'main', final: true, error }),
      maxRetries: 3,
      logger: silentLogger,
    });
    expect(readAgentLog(log)).toHaveLength(1);
    expect(report.tasks[0]?.status).toBe('blocked');
    expect((await ledger.getTask('collides'))?.blockReason).toBe(`Failed after 1 attempt: ${error}`);
  });

  it("adds what the commit policy flagged to the attempt's result and the run report", async () => {
    const { dir, ledger, provider } = setup();
    const flagged = ['big.bin: 52428800 bytes, over the 10.0 MiB limit (commitPolicy.maxFileBytes)'];
    const report = await runPlan(onePlan('flagged'), {
      ledger,
      providers: [provider],
      workspace: workspaceOps(dir),
      workspaceDir: dir,
      sites: sitesCompleting(dir, { kind: 'integrated', into: 'main', flagged, timings: {} }),
      logger: silentLogger,
    });
    expect(report.tasks[0]?.status).toBe('completed');
    expect(report.tasks[0]?.attempts[0]?.flagged).toEqual(flagged);
    const [dispatch] = await ledger.lastDispatches('flagged', 1);
    expect(dispatch?.result).toMatch(/\nflagged: big\.bin: 52428800 bytes/);
  });

  it("stops this run's agent when the task's lease is lost to another run, instead of letting both run", async () => {
    const { dir, ledger } = setup();
    const marker = path.join(dir, '..', `${path.basename(dir)}-sleeper.pid`);
    const stop = new AbortController();
    const events: SupervisorEvent[] = [];
    const report = await runPlan(onePlan('taken'), {
      ledger: leaseLostOnRenewal(ledger, 'taken', () => existsSync(marker)),
      providers: [agent('sleeper', 'sleeper.mjs', { SLEEPER_MARKER: marker })],
      workspace: workspaceOps(dir),
      workspaceDir: dir,
      leaseMs: 300,
      pollMs: 20,
      logger: silentLogger,
      signal: stop.signal,
      onEvent: (event) => {
        events.push(event);
        // The other run holds the task now: this run would wait for it; the test ends it there.
        if (event.type === 'claim-wait') stop.abort();
      },
    });
    await waitFor(() => existsSync(marker));
    const pid = Number(readFileSync(marker, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    expect(events).toContainEqual(expect.objectContaining({ type: 'task-end', taskId: 'taken', status: 'in_progress' }));
    expect(report.tasks[0]?.status).not.toBe('completed');
  }, 60_000);
});
