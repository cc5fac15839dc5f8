import { getLogger } from '../observability/index.js';
import type { TaskSites } from '../supervisor/index.js';
import { git } from '../workspace/index.js';
import { BatonError } from '../errors/index.js';
import type { BranchLock } from './branch-lock.js';
import { cloneSites } from './clone-sites.js';
import { DEFAULT_COMMIT_POLICY } from './commit-policy.js';
import type { WorktreeSitesOptions } from './create-worktree-sites.js';
import { remoteTarget } from './integration-target.js';
import { openClone } from './open-clone.js';
import { tipWatch } from './tip-watch.js';

/** `repoDir` is the worker's clone of the repository. */
export interface RemoteSitesOptions extends Omit<WorktreeSitesOptions, 'onEvent'> {
  /** One integration at a time per run branch, across every worker (a Redis lock). */
  lock: BranchLock;
}

/** A worker's task sites: one set per remote branch its jobs name, sharing the clone's worktrees. */
export interface RemoteSites {
  /**
   * `startTip`: the commit the run started from (the producer pushed it), which every later tip
   * must hold (a force-push or reset under the run stops integration).
   * @throws BatonError INPUT_INVALID when the clone has no such remote
   */
  forBranch(remote: string, runBranch: string, startTip?: string): Promise<TaskSites>;
  /** Removes the worktrees kept for reuse (a worker calls it when it stops). */
  close(): Promise<void>;
}

/**
 * Task sites for `baton worker`: each task runs in a worktree of the worker's clone, checked out
 * at the remote run branch's tip as just fetched; a passing attempt is committed there and
 * integrated under the branch's lock: fetch, merge the tip in, check again when it brought
 * others' work, and `git push --atomic` of the task's branch (`baton/<task-id>`) and the run
 * branch, which the remote only takes as a fast-forward (the compare-and-swap).
 * @throws BatonError INPUT_INVALID (the worker refuses to start) when the folder is not in a git repository
 */
export async function createRemoteSites(options: RemoteSitesOptions): Promise<RemoteSites> {
  const logger = options.logger ?? getLogger();
  const why = 'baton worker runs tasks in worktrees of a clone of the repository (git clone URL, then start the worker in the clone)';
  const clone = await openClone(options.repoDir, { keep: Boolean(options.keepWorktrees), logger, why });
  const sites = new Map<string, TaskSites>();
  return {
    async forBranch(remote, runBranch, startTip) {
      const key = `${remote}\0${runBranch}\0${startTip ?? ''}`;
      const known = sites.get(key);
      if (known) return known;
      if ((await git(['remote', 'get-url', remote], clone.repo)).code !== 0) {
        throw new BatonError(
          'INPUT_INVALID',
          `${clone.repo} has no remote "${remote}", which this job's results go to (git remote add ${remote} URL)`,
          {
            details: { field: 'remote', value: remote },
          },
        );
      }
      const made = cloneSites({
        clone,
        target: remoteTarget(clone.repo, remote, runBranch, clone.serialize),
        watch: tipWatch(`${remote}/${runBranch}`, startTip),
        lock: options.lock,
        policy: options.commitPolicy ?? DEFAULT_COMMIT_POLICY,
        logger,
      });
      sites.set(key, made);
      return made;
    },
    close: () => clone.pool.close(),
  };
}
