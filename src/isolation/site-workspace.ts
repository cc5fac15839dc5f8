import type { WorkspaceOps } from '../supervisor/index.js';
import type { WorkspaceSnapshot } from '../workspace/index.js';
import { workspaceIn } from './worktree-ops.js';

/** The first measurement of a freshly checked-out task worktree, read from its base commit. */
class BaseSnapshot {
  constructor(readonly snapshot: Promise<WorkspaceSnapshot>) {}
}

/**
 * A task's worktree as the supervisor measures and checks it. Right after the checkout it holds
 * the base commit's files and nothing else, so the first measurement (`first`) is read from that
 * commit, while the agent already starts, instead of from the folder before it may. `agentDone`
 * hears when an agent run ended well (the worker starts its fetch then).
 */
export function siteWorkspace(dir: string, first: Promise<WorkspaceSnapshot>, agentDone: () => void): WorkspaceOps {
  // On the task's path: normal priority (SIDE_WORK_NICENESS says why).
  const measured = workspaceIn(dir, 0);
  let base: BaseSnapshot | undefined = new BaseSnapshot(first);
  first.catch(() => undefined);
  const read = async (snapshot: unknown) => (snapshot instanceof BaseSnapshot ? snapshot.snapshot : snapshot);
  return {
    ...measured,
    snapshot: async () => {
      const taken = base;
      base = undefined;
      return taken ?? measured.snapshot();
    },
    diff: async (before, after) => measured.diff(await read(before), await read(after)),
    agentDone,
  };
}
