import path from 'node:path';
import { BatonError } from '../errors/index.js';
import type { Dispatch, Task } from '../ledger/index.js';
import { getLogger, type Logger } from '../observability/index.js';
import type { PreContextLimits } from '../precontext/index.js';
import type { CompletionGate, EventSink, TaskSite, TaskSites } from '../supervisor/index.js';
import { commitIdentity, git, gitOk } from './git.js';
import { integrateTask } from './integrate-task.js';
import { pruneStaleWorktrees } from './prune-stale.js';
import { commitAll, createSerializer, deleteBranches, discardWorktrees, removeWorktree, workspaceIn } from './worktree-ops.js';
import { safeRefPart, taskBranch, taskCommitMessage } from './task-branch.js';

/** A passing task re-run this many times after merge conflicts before its attempts count again. */
export const MAX_CONFLICT_RERUNS = 3;

export interface WorktreeSitesOptions {
  /** Any folder inside the repository; its checked-out branch is the run's branch. */
  repoDir: string;
  /** Keep each task's worktree and branch after integration. @default false */
  keepWorktrees?: boolean;
  /** Limits of the merge-conflict block (the run's pre-context limits). */
  limits?: Partial<PreContextLimits>;
  logger?: Logger;
  onEvent?: EventSink;
}

/**
 * Task sites for `baton run --concurrency N`: each task runs in its own git worktree on branch
 * `baton/<task-id>`, set to the run's branch as it is when the task starts (so it holds its
 * dependencies' results); at most N worktrees are made and reused task after task. A passing attempt is committed there ("baton: <task> (attempt N)") and
 * merged into the run's branch in the user's working tree, one at a time; a merge conflict is
 * aborted, the worktree reset to the new base, and the task re-run with a MERGE CONFLICT CONTEXT.
 * Worktrees live in `<git-common-dir>/baton-worktrees/`; stale ones and stale `baton/*` branches
 * left by an interrupted run are removed when the next run starts.
 * @throws BatonError INPUT_INVALID when the folder is not in a git repository, HEAD is detached, or
 * tracked files have uncommitted changes (a merge would mix them with the tasks' results).
 */
export async function createWorktreeSites(options: WorktreeSitesOptions): Promise<TaskSites> {
  const logger = options.logger ?? getLogger();
  const onEvent = options.onEvent ?? (() => {});
  const top = await git(['rev-parse', '--show-toplevel'], options.repoDir);
  if (top.code !== 0)
    invalid(
      `--concurrency runs each task in a git worktree: ${options.repoDir} is not in a git repository (git init, commit, then run again)`,
      options.repoDir,
    );
  const repo = top.stdout.trim();
  const branch = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], repo);
  if (branch.code !== 0)
    invalid(`--concurrency integrates into the checked-out branch, but HEAD in ${repo} is detached: check out a branch first`, repo);
  const runBranch = branch.stdout.trim();
  const dirty = await gitOk(['status', '--porcelain', '--untracked-files=no'], repo);
  if (dirty) {
    invalid(
      `--concurrency merges each task's result into ${runBranch} in ${repo}, which has uncommitted changes to tracked files:\n${dirty.split('\n').slice(0, 5).join('\n')}\nCommit or stash them first.`,
      repo,
    );
  }
  const commonDir = path.resolve(repo, await gitOk(['rev-parse', '--git-common-dir'], repo));
  const root = path.join(commonDir, 'baton-worktrees');
  const identity = await commitIdentity(repo);
  await pruneStaleWorktrees(repo, root, logger);

  // Integrations touch the user's working tree: one at a time.
  const serially = createSerializer();
  const oneCheckoutAtATime = createSerializer();

  // Worktrees are reused from task to task: switching one to a new branch rewrites only the files
  // that differ and keeps its index warm, where a fresh worktree of a large repository checks out
  // and then stats every file (seconds on 50,000 files).
  const idle: string[] = [];
  const all = new Set<string>();
  let made = 0;
  // Slots whose last task left every file committed: no untracked file to clean away.
  const settled = new Set<string>();
  // Task branches are deleted together when the run ends (one git run, not one per task).
  const done: string[] = [];

  return {
    async open(task: Task): Promise<TaskSite> {
      const ref = taskBranch(task.id);
      const reused = options.keepWorktrees ? undefined : idle.pop();
      const dir = reused ?? path.join(root, options.keepWorktrees ? safeRefPart(task.id) : `slot-${++made}`);
      // The base is the run's branch now: every dependency has been integrated into it. It is
      // read once, as a commit: `checkout -B ref main` reads `main` for the files and again for the
      // new branch, and a task integrated in between left the files a commit behind the branch, so
      // this task's commit deleted that task's result.
      if (reused) {
        // Only this worktree's index and HEAD change (and a new ref): no need to wait for others.
        const base = await gitOk(['rev-parse', '--verify', `refs/heads/${runBranch}^{commit}`], repo);
        // The slot may still be on its last task's branch (released without a switch), and a
        // re-run task's branch may be that of an idle slot: neither blocks the switch.
        await gitOk(['checkout', '--quiet', '--force', '--ignore-other-worktrees', '-B', ref, base], dir);
        if (!settled.delete(dir)) await gitOk(['clean', '-fdq'], dir);
      } else {
        await removeWorktree(repo, dir);
        // Only the branch and the worktree's record are made under the integration lock. Its files
        // are written outside it, so integrations go on meanwhile, but one worktree at a time:
        // four checkouts of 50,000 files side by side took 23 s each here, one after another 2.7 s.
        await serially(async () => {
          const base = await gitOk(['rev-parse', '--verify', `refs/heads/${runBranch}^{commit}`], repo);
          await gitOk(['worktree', 'add', '--quiet', '--no-checkout', '-B', ref, dir, base], repo);
        });
        all.add(dir);
        await oneCheckoutAtATime(() => gitOk(['reset', '--hard', '--quiet'], dir));
      }
      let conflicts = 0;
      return {
        dir,
        workspace: workspaceIn(dir),
        complete: async (attempt: number, _dispatch: Dispatch): Promise<CompletionGate> => {
          await commitAll(dir, taskCommitMessage(task.id, attempt), identity);
          const result = await serially(() =>
            integrateTask({ repo, runBranch, worktree: dir, taskId: task.id, taskBranch: ref, identity, limits: options.limits ?? {} }),
          );
          onEvent({ type: 'integration', taskId: task.id, attempt, ok: result.ok, detail: result.ok ? `into ${runBranch}` : result.error });
          if (result.ok) {
            // Its last attempt committed every file: the next task in this worktree needs no clean.
            settled.add(dir);
            return { ok: true };
          }
          if (result.conflict) conflicts += 1;
          logger.warn({ taskId: task.id, attempt, error: result.error }, 'task result not integrated; re-running on the new base');
          return {
            ok: false,
            error: result.error,
            context: result.context,
            contextType: 'merge_conflict',
            extraAttempt: result.conflict && conflicts <= MAX_CONFLICT_RERUNS,
          };
        },
        release: async () => {
          if (options.keepWorktrees) return;
          // The worktree waits on this branch for the next task, which switches it; the branch
          // goes when the run ends (after the worktrees, so none has it checked out).
          done.push(ref);
          idle.push(dir);
        },
      };
    },
    async finish() {
      if (!options.keepWorktrees) await discardWorktrees(repo, root, all);
      else await git(['worktree', 'prune'], repo);
      await deleteBranches(repo, done);
    },
  };
}

function invalid(message: string, dir: string): never {
  throw new BatonError('INPUT_INVALID', message, { details: { field: '--concurrency', value: dir } });
}
