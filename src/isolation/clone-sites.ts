import { performance } from 'node:perf_hooks';
import type { Task } from '../ledger/index.js';
import type { Logger } from '../observability/index.js';
import type { ConflictAuthor } from '../precontext/index.js';
import { type LandedResult, type SiteOutcome, type TaskSite, type TaskSites, workspaceOps } from '../supervisor/index.js';
import { git, gitOk } from '../workspace/index.js';
import type { BranchLock } from './branch-lock.js';
import { commitAttempt, type CommitPolicy } from './commit-policy.js';
import type { IntegrationTarget } from './integration-target.js';
import type { Clone } from './open-clone.js';
import { taskBranch, taskCommitMessage, taskOfSubject } from './task-branch.js';
import type { TipWatch } from './tip-watch.js';

/** Pushes lost to someone else's push (outside Baton: the lock keeps Baton's in turn) before giving up. */
const MAX_PUSH_RACES = 10;

type Timings = Record<'lockWait' | 'fetch' | 'merge' | 'recheck' | 'push' | 'races', number>;

export interface CloneSitesOptions {
  clone: Clone;
  target: IntegrationTarget;
  /** The target's history as this run saw it (a force-push or reset under the run stops integration). */
  watch: TipWatch;
  lock: BranchLock;
  policy: CommitPolicy;
  logger: Logger;
}

/** What integrating a passing attempt takes from its site. */
interface SiteRun {
  /** The tip the task's worktree was checked out at. */
  base: string;
  /** The task's checks, run again when the tip brought others' work; their failures. */
  recheck: () => Promise<string[]>;
  /** The run's: stops the wait for the branch's lock (the integration then throws the abort reason). */
  signal: AbortSignal | undefined;
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

async function completeIn(dir: string, task: Task, attempt: number, run: SiteRun, options: CloneSitesOptions): Promise<SiteOutcome> {
  const { clone, target } = options;
  const started = performance.now();
  const commit = await commitAttempt(dir, taskCommitMessage(task.id, attempt), clone.identity, options.policy);
  if (commit.refused !== undefined) return { kind: 'refused', into: target.name, final: false, error: commit.refused };
  const commitMs = Math.round(performance.now() - started);
  const branch = taskBranch(task.id);
  const outcome = await integrateCommit(dir, task.id, run, options);
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
 * Integrates a task's commit into the run's branch, under the branch's lock: fetch the tip, merge
 * it into the commit (the task's checks run again when it brought others' work), and push with
 * a compare-and-swap (`git push --atomic`, fast-forward only); a push that lost a race to someone
 * else starts over from the fetch. A conflict, a failing recheck or a refused push ends it; so
 * does a tip that no longer holds what this run saw there (a force-push or reset: final).
 */
async function integrateCommit(dir: string, taskId: string, run: SiteRun, options: CloneSitesOptions): Promise<SiteOutcome> {
  const timings: Timings = { lockWait: 0, fetch: 0, merge: 0, recheck: 0, push: 0, races: 0 };
  const timed = async <T>(step: Exclude<keyof Timings, 'races'>, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      timings[step] += performance.now() - started;
    }
  };
  const release = await timed('lockWait', () => options.lock.acquire(options.target.name, run.signal));
  try {
    const { target } = options;
    const into = target.name;
    for (; timings.races < MAX_PUSH_RACES; timings.races++) {
      let tip: string;
      try {
        tip = await timed('fetch', () => target.fetchTip());
      } catch (error) {
        return { kind: 'refused', into, final: false, error: `could not read ${into}: ${(error as Error).message}` };
      }
      const rewritten = await options.watch.check(tip, dir, [run.base]);
      if (rewritten) return { kind: 'refused', into, final: true, error: rewritten };
      const merged = await timed('merge', () => mergeTip(dir, tip, taskId, options.clone.identity));
      if (merged.kind === 'conflict') return { kind: 'conflict', into, files: merged.files, changedBy: merged.changedBy };
      if (merged.kind === 'failed') return { kind: 'refused', into, final: false, error: `could not merge ${into}: ${merged.error}` };
      if (merged.kind === 'merged') {
        const failures = await timed('recheck', run.recheck);
        if (failures.length > 0) {
          // The next attempt starts from the tip, where the checks failed.
          await gitOk(['reset', '--hard', '--quiet', tip], dir);
          return { kind: 'refused', into, final: false, error: `after merging ${into}: ${failures[0]}` };
        }
      }
      const pushed = await timed('push', () => target.push(dir, taskBranch(taskId)));
      if (pushed.ok) {
        options.watch.pushed(await gitOk(['rev-parse', 'HEAD'], dir));
        return { kind: 'integrated', into, flagged: [], timings: rounded(timings) };
      }
      if (!pushed.race) return { kind: 'refused', into, final: pushed.final, error: pushed.error };
      options.logger.info({ taskId, race: timings.races }, `${into} moved during integration; fetching and merging again`);
    }
    return { kind: 'refused', into, final: false, error: `could not push to ${into}: it kept moving (${MAX_PUSH_RACES} races)` };
  } finally {
    await release();
  }
}

function rounded(timings: Timings): Record<string, number> {
  return Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)]));
}

/** Files named in a conflict's authors, at most (the conflict context lists no more). */
const MAX_CONFLICT_AUTHORS = 5;

/** What merging a branch's tip into a task's commit came to. */
type MergeResult =
  | { kind: 'current' }
  | { kind: 'merged' }
  | { kind: 'conflict'; files: string[]; changedBy: ConflictAuthor[] }
  | { kind: 'failed'; error: string };

/**
 * Merges `tip` into the worktree's HEAD (the task's commit): `current` when the tip brought
 * nothing new, `merged` when it did (a fast-forward or a merge commit "baton: integrate <task>").
 * On a conflict the merge is aborted and the worktree reset to the tip, so that the task's next
 * attempt starts from it; the conflicting files and the newest commit since the task's base that
 * changed each are returned.
 */
async function mergeTip(dir: string, tip: string, taskId: string, identity: Readonly<Record<string, string>>): Promise<MergeResult> {
  const merge = await git(['merge', '--no-edit', '--no-verify', '-m', `baton: integrate ${taskId}`, tip], dir, { env: identity });
  // git says so in English (LC_ALL=C).
  if (merge.code === 0) return /^Already up.to.date/m.test(merge.stdout) ? { kind: 'current' } : { kind: 'merged' };
  const listed = await git(['diff', '--name-only', '--diff-filter=U'], dir);
  const files = listed.stdout.split('\n').filter(Boolean);
  const changedBy = files.length > 0 ? await authorsOf(dir, tip, files) : [];
  await git(['merge', '--abort'], dir);
  if (files.length === 0) return { kind: 'failed', error: firstLine(merge.stderr || merge.stdout) || `git merge exited ${merge.code}` };
  await gitOk(['reset', '--hard', '--quiet', tip], dir);
  await gitOk(['clean', '-fdq'], dir);
  return { kind: 'conflict', files, changedBy };
}

async function authorsOf(dir: string, tip: string, files: readonly string[]): Promise<ConflictAuthor[]> {
  const base = (await git(['merge-base', 'HEAD', tip], dir)).stdout.trim();
  const authors: ConflictAuthor[] = [];
  for (const file of files.slice(0, MAX_CONFLICT_AUTHORS)) {
    const range = base ? `${base}..${tip}` : tip;
    const subject = (await git(['log', '-1', '--no-merges', '--format=%s', range, '--', file], dir)).stdout.trim();
    const task = subject ? taskOfSubject(subject) : undefined;
    if (task) authors.push({ taskId: task.taskId, attempt: task.attempt });
    else if (subject) authors.push({ subject: subject.slice(0, 60) });
  }
  return authors;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
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
