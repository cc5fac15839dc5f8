import type { WorkspaceOps } from '../supervisor/index.js';
import type { WorkspaceSnapshot } from '../workspace/index.js';
import { workspaceIn } from './worktree-ops.js';

/** The first measurement of a freshly checked-out task worktree, read from its base commit. */
class BaseSnapshot {
  constructor(readonly snapshot: Promise<WorkspaceSnapshot>) {}
}

export interface SiteHooks {
  /** An agent run ended well (the worker stages its work then, and makes sure it has the run branch's tip). */
  agentDone(): void;
  /**
   * Runs once the run that ended well is measured, before its checks: a worker brings the run
   * branch's tip in under the attempt's changes there, so the checks see what would be integrated
   * and need not run again on it.
   */
  beforeChecks(): Promise<void>;
}

/**
 * A task's worktree as the supervisor measures and checks it. Right after the checkout it holds
 * the base commit's files and nothing else, so the first measurement (`first`) is read from that
 * commit, while the agent already starts, instead of from the folder before it may.
 */
export function siteWorkspace(dir: string, first: Promise<WorkspaceSnapshot>, hooks: SiteHooks): WorkspaceOps {
  // On the task's path: normal priority (SIDE_WORK_NICENESS says why).
  const measured = workspaceIn(dir, 0);
  let base: BaseSnapshot | undefined = new BaseSnapshot(first);
  first.catch(() => undefined);
  const read = async (snapshot: unknown) => (snapshot instanceof BaseSnapshot ? snapshot.snapshot : snapshot);
  /** Set when an agent run ended well, until it is measured. */
  let ended = false;
  /** Started when that run was measured (beside the ledger's writes); the checks wait for it. */
  let caughtUp: Promise<void> = Promise.resolve();
  return {
    ...measured,
    snapshot: async () => {
      const taken = base;
      base = undefined;
      if (taken) return taken;
      const snapshot = await measured.snapshot();
      if (ended) {
        ended = false;
        caughtUp = hooks.beforeChecks();
      }
      return snapshot;
    },
    diff: async (before, after) => measured.diff(await read(before), await read(after)),
    runCheck: async (command, options) => {
      await caughtUp;
      return measured.runCheck(command, options);
    },
    agentDone: () => {
      ended = true;
      hooks.agentDone();
    },
  };
}
