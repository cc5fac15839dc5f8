import path from 'node:path';
import { BatonError } from '../errors/index.js';
import type { Task } from '../ledger/index.js';
import { getLogger, type Logger } from '../observability/index.js';
import { buildMergeConflictContext, type ConflictAuthor, type PreContextLimits } from '../precontext/index.js';
import type { CompletionGate, EventSink, TaskSite, TaskSites } from '../supervisor/index.js';
import { commitIdentity, git, gitOk, SIDE_WORK_NICENESS } from './git.js';
import type { EndTurn, IntegrationTurns, OfferedCommit } from './integration-turns.js';
import { pruneStaleWorktrees } from './prune-stale.js';
import { checkCommands, failingCheck, takeAlong } from './take-along.js';
import { safeRefPart, taskBranch, taskCommitMessage, taskOfSubject } from './task-branch.js';
import { commitAll, createSerializer, deleteBranches, discardWorktrees, removeWorktree, workspaceIn } from './worktree-ops.js';

/** Pushes lost to another worker's push before the attempt gives up integrating. */
export const MAX_PUSH_RACES = 10;

/** A worker waits this long for the turn before it offers its commit instead. @default 150 */
export const OFFER_AFTER_MS = 150;

/** Offered commits one turn takes along at most, which bounds how long a turn lasts. */
export const MAX_TAKEN_ALONG = 8;

/** @default 2000: a fetch this recent is the base of a task without dependencies. */
const FRESH_BASE_MS = 2_000;

export interface RemoteSitesOptions {
  /** The worker's clone of the repository. */
  repoDir: string;
  /** @default 'origin' */
  remote?: string;
  keepWorktrees?: boolean;
  limits?: Partial<PreContextLimits>;
  logger?: Logger;
  onEvent?: EventSink;
  /** Turns at integrating, shared with the other workers; without them each integrates at will. */
  turns?: IntegrationTurns;
}

/** Sites for one run's branch; a worker makes one per branch it sees in its jobs. */
export interface RemoteSites {
  forBranch(runBranch: string): TaskSites;
  /** Removes the worktrees kept for reuse (a worker calls it when it stops). */
  close(): Promise<void>;
}

/**
 * Task sites for `baton worker`: like --concurrency, each task runs in its own worktree of the
 * worker's clone on `baton/<task-id>`, set to the remote's run branch as just fetched (worktrees
 * are reused task after task, one per task running at once). A passing
 * attempt is committed and integrated with a compare-and-swap on the remote run branch: fetch,
 * merge the branch's tip into the task's commit, re-run the task's checks when that brought in
 * others' work, then one atomic push of the task branch and a plain (fast-forward only) update of
 * the run branch; a push rejected because the branch moved starts over. A conflict resets the
 * worktree to the new tip and re-runs the task with a MERGE CONFLICT CONTEXT. With `turns`, workers
 * integrate one at a time, and the one whose turn it is takes along the commits others offered.
 */
export async function createRemoteSites(options: RemoteSitesOptions): Promise<RemoteSites> {
  const logger = options.logger ?? getLogger();
  const onEvent = options.onEvent ?? (() => {});
  const remote = options.remote ?? 'origin';
  const top = await git(['rev-parse', '--show-toplevel'], options.repoDir);
  if (top.code !== 0)
    throw new BatonError('INPUT_INVALID', `baton worker needs a clone of the repository: ${options.repoDir} is not in a git repository`, {
      details: { field: 'cwd', value: options.repoDir },
    });
  const repo = top.stdout.trim();
  const url = await git(['remote', 'get-url', remote], repo);
  if (url.code !== 0)
    throw new BatonError(
      'INPUT_INVALID',
      `baton worker pushes results to the remote "${remote}", which ${repo} does not have (git remote add ${remote} URL)`,
      { details: { field: '--remote', value: remote } },
    );
  const commonDir = path.resolve(repo, await gitOk(['rev-parse', '--git-common-dir'], repo));
  const root = path.join(commonDir, 'baton-worktrees');
  const identity = await commitIdentity(repo);
  await pruneStaleWorktrees(repo, root, logger);
  // Fetches and worktree changes share the clone's refs: one at a time.
  const serially = createSerializer();
  const tracking = (branch: string) => `refs/remotes/${remote}/${branch}`;
  const fetchedAt = new Map<string, number>();
  /** Fetches the run branch, and the objects of other tasks' branches (no ref kept: they are merged by commit). */
  const fetch = (branch: string, taskRefs: readonly string[] = []) =>
    serially(async () => {
      const started = Date.now();
      const args = ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', remote, `+refs/heads/${branch}:${tracking(branch)}`];
      const fetched = await git([...args, ...taskRefs.map((ref) => `refs/heads/${ref}`)], repo);
      // A task branch gone from the remote fails the whole fetch: its commit is then left out (not found).
      if (fetched.code !== 0) await gitOk(args, repo);
      fetchedAt.set(branch, started);
    });
  /**
   * A task starts from the run branch as fetched. One with dependencies needs their results, so
   * it fetches; any other may start from this worker's last fetch when that is recent (a busy
   * worker fetched at its last integration), since its own integration fetches and merges the tip
   * again. Saves a fetch (two git processes here, one on the remote) per task.
   */
  const baseFor = async (task: Task, branch: string): Promise<void> => {
    const last = fetchedAt.get(branch);
    if (task.dependsOn.length > 0 || last === undefined || Date.now() - last > FRESH_BASE_MS) await fetch(branch);
  };

  // Worktrees are reused from task to task, as with --concurrency: switching one rewrites only the
  // files that differ, where adding and removing one per task cost two git runs under the lock.
  const idle: string[] = [];
  const made = new Set<string>();
  let slots = 0;
  // As with --concurrency: slots left with everything committed, and branches deleted at close.
  const settled = new Set<string>();
  const done: string[] = [];

  const forBranch = (runBranch: string): TaskSites => ({
    async open(task: Task): Promise<TaskSite> {
      const ref = taskBranch(task.id);
      const reused = options.keepWorktrees ? undefined : idle.pop();
      const dir = reused ?? path.join(root, options.keepWorktrees ? safeRefPart(task.id) : `slot-${++slots}`);
      await baseFor(task, runBranch);
      await serially(async () => {
        // One read of the fetched tip, as a commit: `-B ref <name>` would read the name twice, and a
        // push from another of this clone's worktrees moves the tracking ref too (outside this lock).
        const base = await gitOk(['rev-parse', '--verify', `${tracking(runBranch)}^{commit}`], repo);
        if (reused) {
          // As with --concurrency: the slot may still be on its last task's branch.
          await gitOk(['checkout', '--quiet', '--force', '--ignore-other-worktrees', '-B', ref, base], dir, {}, SIDE_WORK_NICENESS);
          if (!settled.delete(dir)) await gitOk(['clean', '-fdq'], dir, {}, SIDE_WORK_NICENESS);
        } else {
          made.add(dir);
          await removeWorktree(repo, dir);
          await gitOk(['worktree', 'add', '--quiet', '-B', ref, dir, base], repo);
        }
      });
      let conflicts = 0;
      const complete = async (attempt: number): Promise<CompletionGate> => {
        await commitAll(dir, taskCommitMessage(task.id, attempt), identity);
        const { turns } = options;
        if (!turns) return integrate(attempt, []);
        let end: EndTurn | undefined;
        try {
          const taken = await turnOrTakenAlong(turns, attempt);
          if (taken === 'taken-along') return { ok: true };
          end = taken;
        } catch (error) {
          // The turn only spares work: without it the compare-and-swap still keeps the result right.
          logger.warn({ err: error, taskId: task.id }, 'integrating without a turn: they could not be read');
          return integrate(attempt, []);
        }
        try {
          const offered = await turns.offered(runBranch, MAX_TAKEN_ALONG + 1).catch(() => []);
          const others = offered.filter((c) => c.taskId !== task.id);
          const gate = await integrate(attempt, others.slice(0, MAX_TAKEN_ALONG));
          // Withdrawn while the turn is held, so that no one takes along a commit its worker gave up on.
          if (!gate.ok) await turns.settle(runBranch, [], [task.id]).catch(() => undefined);
          return gate;
        } finally {
          await end();
        }
      };
      /**
       * The turn, at once or after offering the commit and waiting; 'taken-along' when the worker
       * whose turn it was integrated the commit meanwhile.
       */
      const turnOrTakenAlong = async (turns: IntegrationTurns, attempt: number): Promise<EndTurn | 'taken-along'> => {
        // A turn usually frees up sooner than offering (a push of its own) takes: offer only when
        // the wait is long, that is when several workers queue for the branch.
        const soon = await turns.tryTake(runBranch, OFFER_AFTER_MS);
        if (soon) return soon;
        if (await offer(turns, attempt)) {
          const waited = await turns.awaitOutcome(runBranch, task.id, attempt);
          if ('end' in waited) return waited.end;
          if (waited.outcome.ok) {
            settled.add(dir);
            const detail = `pushed to ${remote}/${runBranch} by ${waited.outcome.by}`;
            onEvent({ type: 'integration', taskId: task.id, attempt, ok: true, detail });
            return 'taken-along';
          }
          logger.info({ taskId: task.id, reason: waited.outcome.reason }, 'not taken along; integrating alone');
        }
        return turns.take(runBranch);
      };
      /** Pushes the task's commit to its branch and offers it; false when the push failed. */
      const offer = async (turns: IntegrationTurns, attempt: number): Promise<boolean> => {
        const pushed = await git(['push', '--quiet', remote, `+HEAD:refs/heads/${ref}`], dir, {}, SIDE_WORK_NICENESS);
        if (pushed.code !== 0) return false;
        const sha = await gitOk(['rev-parse', 'HEAD'], dir);
        await turns.offer(runBranch, { taskId: task.id, attempt, sha, checks: checkCommands(task) });
        return true;
      };
      const integrate = async (attempt: number, others: readonly OfferedCommit[]): Promise<CompletionGate> => {
        const checks = checkCommands(task);
        for (let race = 0; race < MAX_PUSH_RACES; race++) {
          await fetch(
            runBranch,
            others.map((c) => taskBranch(c.taskId)),
          );
          const merge = await git(
            ['merge', '--no-edit', '--no-verify', '-m', `baton: integrate ${task.id}`, tracking(runBranch)],
            dir,
            identity,
          );
          if (merge.code !== 0) {
            conflicts += 1;
            const gate = await conflictGate(dir, runBranch, tracking(runBranch), task.id, options.limits ?? {}, conflicts);
            onEvent({ type: 'integration', taskId: task.id, attempt, ok: false, detail: gate.error });
            return gate;
          }
          // git says so when the tip brought nothing new (its messages are in English: LC_ALL=C).
          const moved = !/^Already up.to.date/m.test(merge.stdout);
          if (moved) {
            // Others' work came in with the merge: the task's checks must still pass on the result.
            const failed = await failingCheck(checks, dir);
            if (failed) {
              await gitOk(['reset', '--hard', '--quiet', tracking(runBranch)], dir);
              const error = `after merging ${runBranch}: ${failed}`;
              onEvent({ type: 'integration', taskId: task.id, attempt, ok: false, detail: error });
              return { ok: false, error, context: '', contextType: 'merge_conflict', extraAttempt: false };
            }
          }
          const along = options.turns && others.length > 0 ? await takeAlong(dir, others, identity, options.turns.by) : [];
          // The compare-and-swap: a plain push of the run branch only succeeds as a fast-forward of
          // what we fetched; --atomic pushes the task branch with it, or neither.
          const push = await git(['push', '--quiet', '--atomic', remote, `+HEAD:refs/heads/${ref}`, `HEAD:refs/heads/${runBranch}`], dir);
          if (push.code === 0) {
            settled.add(dir);
            // Pushed: a lost settle only makes the others integrate alone (their merges are then no-ops).
            await options.turns?.settle(runBranch, along, [task.id, ...along.map((a) => a.commit.taskId)]).catch((error: unknown) => {
              logger.warn({ err: error }, 'could not record the commits taken along; their workers integrate them again (no-ops)');
            });
            onEvent({ type: 'integration', taskId: task.id, attempt, ok: true, detail: `pushed to ${remote}/${runBranch}` });
            return { ok: true };
          }
          logger.info({ taskId: task.id, race }, `${remote}/${runBranch} moved during integration; fetching and merging again`);
        }
        const error = `could not push to ${remote}/${runBranch}: it kept moving (${MAX_PUSH_RACES} races)`;
        return { ok: false, error, context: '', contextType: 'merge_conflict', extraAttempt: false };
      };
      return {
        dir,
        workspace: workspaceIn(dir),
        complete,
        release: async () => {
          if (options.keepWorktrees) return;
          // The worktree waits on this branch for the next task; the branch goes when the worker stops.
          done.push(ref);
          idle.push(dir);
        },
      };
    },
  });

  const close = async (): Promise<void> => {
    if (options.keepWorktrees) return;
    await serially(async () => {
      await discardWorktrees(repo, root, made);
      await deleteBranches(repo, done.splice(0));
    });
    made.clear();
    idle.length = 0;
  };
  return { forBranch, close };
}

async function conflictGate(
  dir: string,
  runBranch: string,
  tip: string,
  taskId: string,
  limits: Partial<PreContextLimits>,
  conflicts: number,
): Promise<Extract<CompletionGate, { ok: false }>> {
  const listed = await git(['diff', '--name-only', '--diff-filter=U'], dir);
  const files = listed.stdout
    .split('\n')
    .map((f) => f.trim())
    .filter(Boolean);
  await git(['merge', '--abort'], dir);
  const base = (await git(['merge-base', 'HEAD', tip], dir)).stdout.trim();
  const changedBy: ConflictAuthor[] = [];
  for (const file of files.slice(0, 5)) {
    const subject = (await git(['log', '-1', '--no-merges', '--format=%s', base ? `${base}..${tip}` : tip, '--', file], dir)).stdout.trim();
    const task = subject ? taskOfSubject(subject) : undefined;
    if (task) changedBy.push({ taskId: task.taskId, attempt: task.attempt });
    else if (subject) changedBy.push({ subject: subject.slice(0, 60) });
  }
  await gitOk(['reset', '--hard', '--quiet', tip], dir);
  await gitOk(['clean', '-fdq'], dir);
  const error =
    files.length > 0 ? `merge conflict integrating into ${runBranch}: ${files.slice(0, 5).join(', ')}` : `could not merge ${runBranch}`;
  return {
    ok: false,
    error: `${error} (task ${taskId})`,
    context: buildMergeConflictContext({ files, changedBy, limits }),
    contextType: 'merge_conflict',
    extraAttempt: files.length > 0 && conflicts <= 3,
  };
}
