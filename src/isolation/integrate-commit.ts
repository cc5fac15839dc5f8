import { performance } from 'node:perf_hooks';
import type { Logger } from '../observability/index.js';
import type { SiteOutcome } from '../supervisor/index.js';
import { gitOk } from '../workspace/index.js';
import type { BranchLock } from './branch-lock.js';
import type { IntegrationTarget } from './integration-target.js';
import { mergeTip } from './merge-tip.js';
import type { TipWatch } from './tip-watch.js';

/** Pushes lost to someone else's push (outside Baton: the lock keeps Baton's in turn) before giving up. */
export const MAX_PUSH_RACES = 10;

export interface IntegrateInput {
  /** The task's worktree, its HEAD the task's commit. */
  dir: string;
  taskId: string;
  /** `baton/<task-id>`: pushed with the run's branch. */
  taskBranch: string;
  target: IntegrationTarget;
  /** The target's history as this run saw it: a tip that dropped part of it is not integrated into. */
  watch: TipWatch;
  /** The tip the task's worktree was checked out at. */
  base: string;
  lock: BranchLock;
  identity: Readonly<Record<string, string>>;
  /** The task's checks, run again when the tip brought others' work; their failures. */
  recheck: () => Promise<string[]>;
  logger: Logger;
  /** The run's: stops the wait for the branch's lock (the integration then throws the abort reason). */
  signal?: AbortSignal;
}

type Timings = Record<'lockWait' | 'fetch' | 'merge' | 'recheck' | 'push' | 'races', number>;

/**
 * Integrates a task's commit into the run's branch, under the branch's lock: fetch the tip, merge
 * it into the commit (the task's checks run again when it brought others' work), and push with
 * a compare-and-swap (`git push --atomic`, fast-forward only); a push that lost a race to someone
 * else starts over from the fetch. A conflict, a failing recheck or a refused push ends it; so
 * does a tip that no longer holds what this run saw there (a force-push or reset: final).
 */
export async function integrateCommit(input: IntegrateInput): Promise<SiteOutcome> {
  const timings: Timings = { lockWait: 0, fetch: 0, merge: 0, recheck: 0, push: 0, races: 0 };
  const timed = async <T>(step: Exclude<keyof Timings, 'races'>, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      timings[step] += performance.now() - started;
    }
  };
  const release = await timed('lockWait', () => input.lock.acquire(input.target.name, input.signal));
  try {
    return await integrateHeld(input, timed, timings);
  } finally {
    await release();
  }
}

async function integrateHeld(
  input: IntegrateInput,
  timed: <T>(step: Exclude<keyof Timings, 'races'>, work: () => Promise<T>) => Promise<T>,
  timings: Timings,
): Promise<SiteOutcome> {
  const { dir, target } = input;
  const into = target.name;
  for (; timings.races < MAX_PUSH_RACES; timings.races++) {
    let tip: string;
    try {
      tip = await timed('fetch', () => target.fetchTip());
    } catch (error) {
      return { kind: 'refused', into, final: false, error: `could not read ${into}: ${(error as Error).message}` };
    }
    const rewritten = await input.watch.check(tip, dir, [input.base]);
    if (rewritten) return { kind: 'refused', into, final: true, error: rewritten };
    const merged = await timed('merge', () => mergeTip(dir, tip, input.taskId, input.identity));
    if (merged.kind === 'conflict') return { kind: 'conflict', into, files: merged.files, changedBy: merged.changedBy };
    if (merged.kind === 'failed') return { kind: 'refused', into, final: false, error: `could not merge ${into}: ${merged.error}` };
    if (merged.kind === 'merged') {
      const failures = await timed('recheck', input.recheck);
      if (failures.length > 0) {
        // The next attempt starts from the tip, where the checks failed.
        await gitOk(['reset', '--hard', '--quiet', tip], dir);
        return { kind: 'refused', into, final: false, error: `after merging ${into}: ${failures[0]}` };
      }
    }
    const pushed = await timed('push', () => target.push(dir, input.taskBranch));
    if (pushed.ok) {
      input.watch.pushed(await gitOk(['rev-parse', 'HEAD'], dir));
      return { kind: 'integrated', into, flagged: [], timings: rounded(timings) };
    }
    if (!pushed.race) return { kind: 'refused', into, final: pushed.final, error: pushed.error };
    input.logger.info({ taskId: input.taskId, race: timings.races }, `${into} moved during integration; fetching and merging again`);
  }
  return { kind: 'refused', into, final: false, error: `could not push to ${into}: it kept moving (${MAX_PUSH_RACES} races)` };
}

function rounded(timings: Timings): Record<string, number> {
  return Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)]));
}
