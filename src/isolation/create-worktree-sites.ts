import { BatonError } from '../errors/index.js';
import { getLogger, type Logger } from '../observability/index.js';
import type { EventSink, TaskSites } from '../supervisor/index.js';
import { git, gitOk } from '../workspace/index.js';
import { inProcessLock } from './branch-lock.js';
import { cloneSites } from './clone-sites.js';
import { type CommitPolicy, DEFAULT_COMMIT_POLICY } from './commit-policy.js';
import { localTarget } from './integration-target.js';
import { openClone } from './open-clone.js';
import { TASK_BRANCH_PREFIX } from './task-branch.js';
import { tipWatch } from './tip-watch.js';

export interface WorktreeSitesOptions {
  /** Any folder inside the repository; its checked-out branch is the run's branch. */
  repoDir: string;
  /** Keep each task's worktree and branch after the run. @default false */
  keepWorktrees?: boolean;
  /** @default DEFAULT_COMMIT_POLICY */
  commitPolicy?: CommitPolicy;
  logger?: Logger;
  onEvent?: EventSink;
}

/**
 * Task sites for `baton run --concurrency N`: each task runs in its own git worktree (at most N,
 * reused), checked out at the run's branch as it is when the task starts. A passing attempt is
 * committed there and integrated into the run's branch, one at a time (an in-process lock): the
 * branch's tip is merged in, the checks run again when it brought others' work, and the result is
 * pushed to the repository itself, which moves the branch (by ref, so a branch the user switched
 * away from still gets the results) and, when it is checked out, the user's working tree with it.
 * Worktrees live in `<git-common-dir>/baton-worktrees/`; what an interrupted run left there, and
 * task branches already merged, are removed when the next run starts.
 * @throws BatonError INPUT_INVALID when the folder is not in a git repository, HEAD is detached, or
 * tracked files have uncommitted changes (they would be mixed with the tasks' results)
 */
export async function createWorktreeSites(options: WorktreeSitesOptions): Promise<TaskSites> {
  const logger = options.logger ?? getLogger();
  const why = '--concurrency runs each task in a git worktree (git init, commit, then run again)';
  const clone = await openClone(options.repoDir, { keep: Boolean(options.keepWorktrees), logger, why });
  const { repo } = clone;
  const runBranch = await checkedOutBranch(repo);
  const dirty = await gitOk(['status', '--porcelain', '--untracked-files=no'], repo);
  if (dirty) {
    const files = dirty.split('\n').slice(0, 5).join('\n');
    invalid(
      `--concurrency merges each task's result into ${runBranch} in ${repo}, which has uncommitted changes to tracked files:\n${files}\nCommit or stash them first.`,
      repo,
    );
  }
  await deleteMergedTaskBranches(repo, runBranch);
  const sites = cloneSites({
    clone,
    target: localTarget(repo, runBranch),
    watch: tipWatch(runBranch, await gitOk(['rev-parse', '--verify', `refs/heads/${runBranch}^{commit}`], repo)),
    lock: inProcessLock(),
    policy: options.commitPolicy ?? DEFAULT_COMMIT_POLICY,
    logger,
  });
  return {
    open: (task) => sites.open(task),
    async finish() {
      await clone.pool.close();
      if (!options.keepWorktrees) await deleteMergedTaskBranches(repo, runBranch);
      const now = (await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], repo)).stdout.trim();
      if (now !== runBranch) {
        options.onEvent?.({
          type: 'notice',
          message: `results went to ${runBranch}, the branch this run started on; ${repo} has ${now || 'a detached HEAD'} checked out now`,
        });
      }
    },
  };
}

async function checkedOutBranch(repo: string): Promise<string> {
  const branch = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], repo);
  if (branch.code !== 0)
    invalid(`--concurrency integrates into the checked-out branch, but HEAD in ${repo} is detached: check out a branch first`, repo);
  return branch.stdout.trim();
}

/** Task branches whose result is on the run's branch; a kept one (a result refused for good) stays. */
async function deleteMergedTaskBranches(repo: string, runBranch: string): Promise<void> {
  const listed = await git(['branch', '--format=%(refname:short)', '--merged', runBranch, '--list', `${TASK_BRANCH_PREFIX}*`], repo);
  const merged = listed.stdout.split('\n').filter(Boolean);
  for (let i = 0; i < merged.length; i += 100) await git(['branch', '-D', ...merged.slice(i, i + 100)], repo);
}

function invalid(message: string, dir: string): never {
  throw new BatonError('INPUT_INVALID', message, { details: { field: '--concurrency', value: dir } });
}
