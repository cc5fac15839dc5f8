import { performance } from 'node:perf_hooks';
import type { Task } from '../ledger/index.js';
import type { Logger } from '../observability/index.js';
import { type LandedResult, type SiteOutcome, type TaskSite, type TaskSites, workspaceOps } from '../supervisor/index.js';
import { git, gitOk } from '../workspace/index.js';
import type { BranchLock } from './branch-lock.js';
import { commitAttempt, type CommitPolicy } from './commit-policy.js';
import { integrateCommit } from './integrate-commit.js';
import type { IntegrationTarget } from './integration-target.js';
import type { Clone } from './open-clone.js';
import { taskBranch, taskCommitMessage, taskOfSubject } from './task-branch.js';
import type { TipWatch } from './tip-watch.js';

export interface CloneSitesOptions {
  clone: Clone;
  target: IntegrationTarget;
  /** The target's history as this run saw it (a force-push or reset under the run stops integration). */
  watch: TipWatch;
  lock: BranchLock;
  policy: CommitPolicy;
  logger: Logger;
}

/**
 * Task sites in one clone for one target branch: a task runs in a worktree of the pool checked
 * out at the branch's tip (so it holds its dependencies' results); a passing attempt is committed
 * there (`git add -A && git commit`, under the commit policy) and integrated under the branch's
 * lock (integrateCommit); the worktree goes back to the pool when the task ends.
 */
export function cloneSites(options: CloneSitesOptions): TaskSites {
  const { clone, target } = options;
  return {
    landed: (task) => findLandedResult(clone.repo, target, task.id),
    async open(task: Task): Promise<TaskSite> {
      const base = await target.fetchTip();
      const dir = await clone.pool.take(base, task.id);
      return {
        dir,
        workspace: workspaceOps(dir, { gitTop: true }),
        complete: (attempt, { recheck, signal }) => completeIn(dir, task, attempt, { base, recheck, signal }, options),
        release: async () => clone.pool.give(dir),
      };
    },
  };
}

async function completeIn(
  dir: string,
  task: Task,
  attempt: number,
  run: { base: string; recheck: () => Promise<string[]>; signal: AbortSignal | undefined },
  options: CloneSitesOptions,
): Promise<SiteOutcome> {
  const { clone, target } = options;
  const started = performance.now();
  const commit = await commitAttempt(dir, taskCommitMessage(task.id, attempt), clone.identity, options.policy);
  if (commit.refused !== undefined) return { kind: 'refused', into: target.name, final: false, error: commit.refused };
  const commitMs = Math.round(performance.now() - started);
  const branch = taskBranch(task.id);
  const outcome = await integrateCommit({
    dir,
    taskId: task.id,
    taskBranch: branch,
    target,
    watch: options.watch,
    base: run.base,
    lock: options.lock,
    identity: clone.identity,
    recheck: run.recheck,
    logger: options.logger,
    ...(run.signal ? { signal: run.signal } : {}),
  });
  if (outcome.kind === 'integrated') {
    options.logger.info({ taskId: task.id, attempt, into: outcome.into, ms: { commit: commitMs, ...outcome.timings } }, 'task integrated');
    return { ...outcome, flagged: commit.flagged, timings: { commit: commitMs, ...outcome.timings } };
  }
  if (outcome.kind !== 'refused' || !outcome.final) return outcome;
  // Nothing is lost: the result stays on the task's branch for the user to merge.
  await gitOk(['branch', '--force', branch, 'HEAD'], dir);
  return { ...outcome, error: `${outcome.error}; the task's result is kept on branch ${branch} (then: git merge ${branch})` };
}

/**
 * The result of `taskId` already on the target branch: its task branch (`baton/<task-id>`,
 * pushed together with the branch) holds a commit of this task that the branch's tip contains.
 * A worker that died after its push landed, before the ledger heard of it, leaves exactly this.
 */
async function findLandedResult(repo: string, target: IntegrationTarget, taskId: string): Promise<LandedResult | undefined> {
  const commit = await target.readTaskBranch(taskBranch(taskId));
  if (!commit) return undefined;
  const tip = await target.fetchTip();
  if ((await git(['merge-base', '--is-ancestor', commit, tip], repo)).code !== 0) return undefined;
  // The task's own commit: the branch's commit, or (a merge "baton: integrate <task>") its first parent.
  const subject = (await git(['log', '-1', '--first-parent', '--no-merges', '--format=%s', commit], repo)).stdout.trim();
  const named = taskOfSubject(subject);
  if (named?.taskId !== taskId) return undefined;
  return { attempt: named.attempt, commit, into: target.name };
}
