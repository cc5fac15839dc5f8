import path from 'node:path';
import { BatonError } from '../errors/index.js';
import type { Task } from '../ledger/index.js';
import { getLogger, type Logger } from '../observability/index.js';
import { buildMergeConflictContext, type ConflictAuthor, type PreContextLimits } from '../precontext/index.js';
import type { CompletionGate, EventSink, TaskSite, TaskSites } from '../supervisor/index.js';
import { snapshotOfCommit, type WorkspaceSnapshot } from '../workspace/index.js';
import { commitIdentity, git, gitOk, readHead, readRef, SIDE_WORK_NICENESS } from './git.js';
import type { EndTurn, IntegrationTurns, OfferedCommit } from './integration-turns.js';
import { pruneStaleWorktrees } from './prune-stale.js';
import { checkCommands, failingCheck, takeAlong } from './take-along.js';
import { safeRefPart, taskBranch, taskCommitMessage, taskOfSubject } from './task-branch.js';
import { createTipSharing } from './shared-tips.js';
import { siteWorkspace } from './site-workspace.js';
import { commitAll, commitStaged, createSerializer, discardWorktrees, removeWorktree, type StagedPaths, stageAll } from './worktree-ops.js';

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
 * worker's clone, at the remote's run branch as this clone has it (worktrees are reused task after
 * task, one per task running at once, each made ready for its next task when released). The
 * clone keeps up with the run branch as the other workers push, through the tips they share
 * (shared-tips.ts), and fetches when it has not heard of the latest. When an agent run ends well
 * its work is staged, and once measured the branch's tip is brought in under it, so the task's
 * checks run on what would be pushed; a passing attempt is committed there (the tip merged
 * instead when both changed the same files; the checks run again when the tip moved meanwhile),
 * and integrated with a compare-and-swap on the remote run branch: one atomic push of the task
 * branch (`baton/<task-id>`) and a plain (fast-forward only) update of the run branch. A push
 * rejected because the branch moved fetches, merges, checks and pushes again. A conflict resets
 * the worktree to the new tip and re-runs the task with a MERGE CONFLICT CONTEXT. With `turns`,
 * workers push one at a time (a turn whose last holder pushed the tip this clone has is only the
 * push), the one whose turn it is takes along the commits others offered, and each pushed tip is
 * shared with the others.
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
  // Fetches write the tracking refs, one at a time; worktree changes (add, switch, remove) one at
  // a time too. A fetch and a worktree change may overlap: they write different refs.
  const fetching = createSerializer();
  const worktrees = createSerializer();
  const tracking = (branch: string) => `refs/remotes/${remote}/${branch}`;
  /** Resolves once every fetch started so far (the early one, say) has landed. */
  const fetchesDone = () => fetching(async () => undefined);
  /** The run branch's tip as this clone last fetched (or pushed) it. */
  const trackedTip = (branch: string) => readRef(commonDir, tracking(branch), repo);
  const fetchedAt = new Map<string, number>();
  /** Fetches the run branch, and the objects of other tasks' branches (no ref kept: they are merged by commit). */
  const fetchNow = async (branch: string, taskRefs: readonly string[] = []) => {
    const started = Date.now();
    // Forced updates are not looked for (a walk of history each fetch); the flag would warn on stderr.
    const args = [
      '-c',
      'fetch.showForcedUpdates=false',
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      remote,
      `+refs/heads/${branch}:${tracking(branch)}`,
    ];
    const fetched = await git([...args, ...taskRefs.map((ref) => `refs/heads/${ref}`)], repo);
    // A task branch gone from the remote fails the whole fetch: its commit is then left out (not found).
    if (fetched.code !== 0) await gitOk(args, repo);
    fetchedAt.set(branch, started);
  };
  const fetch = (branch: string, taskRefs: readonly string[] = []) => fetching(() => fetchNow(branch, taskRefs));
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

  const tips = await createTipSharing({
    repo,
    commonDir,
    turns: options.turns,
    logger,
    trackingRef: tracking,
    trackedTip,
    serialize: fetching,
    onTakenIn: (branch) => fetchedAt.set(branch, Date.now()),
  });
  /** The fetch at an agent's end, unless the tips shared since the last one brought the branch's latest. */
  const catchUp = (branch: string) =>
    fetching(async () => {
      if (!(await tips.upToDate(branch))) await fetchNow(branch);
    });

  // Worktrees are reused from task to task, as with --concurrency: switching one rewrites only the
  // files that differ, where adding and removing one per task cost two git runs under the lock.
  // A slot works on a detached HEAD (its commits are pushed to the task's branch by commit), so
  // that it can be made ready for its next task, at the tip it knows, as soon as it is released.
  const idle: string[] = [];
  const made = new Set<string>();
  let slots = 0;
  const ready = new Map<string, Promise<ReadySlot | undefined>>();
  /** Cleans a released slot (a check may have left files) and checks out the run branch's tip as this clone knows it. */
  const makeReady = (dir: string, branch: string): Promise<ReadySlot | undefined> =>
    (async () => {
      await gitOk(['clean', '-fdq'], dir, {}, SIDE_WORK_NICENESS);
      const commit = await trackedTip(branch);
      await worktrees(() => gitOk(['checkout', '--quiet', '--force', '--detach', commit], dir, {}, SIDE_WORK_NICENESS));
      const snapshot = snapshotOfCommit(dir, commit, SIDE_WORK_NICENESS);
      snapshot.catch(() => undefined);
      return { branch, commit, at: Date.now(), snapshot };
    })().catch((error: unknown) => {
      logger.debug({ err: error, dir }, 'could not make an idle worktree ready; its next task sets it up');
      return undefined;
    });

  const forBranch = (runBranch: string): TaskSites => ({
    async open(task: Task): Promise<TaskSite> {
      tips.listen(runBranch);
      const ref = taskBranch(task.id);
      const reused = options.keepWorktrees ? undefined : idle.pop();
      const dir = reused ?? path.join(root, options.keepWorktrees ? safeRefPart(task.id) : `slot-${++slots}`);
      const slot = reused ? await ready.get(reused) : undefined;
      ready.delete(dir);
      let base: string;
      let first: Promise<WorkspaceSnapshot>;
      // As baseFor: a task without dependencies may start from a tip fetched (or pushed) lately.
      if (slot && slot.branch === runBranch && task.dependsOn.length === 0 && Date.now() - slot.at <= FRESH_BASE_MS) {
        base = slot.commit;
        first = slot.snapshot;
      } else {
        await baseFor(task, runBranch);
        // One read of the fetched tip, as a commit: a push from another of this clone's worktrees,
        // or a fetch, may move the tracking ref meanwhile.
        base = await trackedTip(runBranch);
        await worktrees(async () => {
          if (reused) {
            await gitOk(['checkout', '--quiet', '--force', '--detach', base], dir, {}, SIDE_WORK_NICENESS);
            // The slot was made ready at another tip, or could not be cleaned then.
            if (!slot) await gitOk(['clean', '-fdq'], dir, {}, SIDE_WORK_NICENESS);
          } else {
            made.add(dir);
            await removeWorktree(repo, dir);
            // A kept worktree (for a person to look at) is on the task's branch.
            const on = options.keepWorktrees ? ['-B', ref] : ['--detach'];
            await gitOk(['worktree', 'add', '--quiet', ...on, dir, base], repo);
          }
        });
        first = snapshotOfCommit(dir, base, SIDE_WORK_NICENESS);
      }
      let conflicts = 0;
      /** Whether this task's commit was ever offered to be taken along (its offer is withdrawn at the end). */
      let offeredOwn = false;
      /**
       * The attempt's work, staged as soon as its agent ended well (what staging lists is a first
       * run's measurement): what a passing attempt commits, without the files its checks then write.
       */
      let staged: Promise<StagedPaths | undefined> | undefined;
      /** When an agent run ended well: the run branch's tip is made sure of for the turn, and the work staged. */
      const agentDone = (): Promise<StagedPaths | undefined> => {
        catchUp(runBranch).catch((error: unknown) => logger.debug({ err: error, taskId: task.id }, 'early fetch failed; the turn fetches'));
        staged = stageAll(dir);
        return staged;
      };
      /**
       * Brings the run branch's tip, as this clone has it, in under the attempt's changes before
       * its checks (a fast-forward, one git run): what they check is then what would be pushed.
       * Refused when the tip changed files the attempt changed too; completing merges it then.
       */
      const catchUpWorktree = async (): Promise<void> => {
        try {
          await Promise.all([fetchesDone(), staged]);
          const tip = await trackedTip(runBranch);
          if (tip !== (await readHead(dir))) await git(['merge', '--ff-only', '--quiet', tip], dir);
        } catch (error) {
          logger.debug({ err: error, taskId: task.id }, 'the tip was not brought in before the checks; completing merges it');
        }
      };
      const complete = async (attempt: number): Promise<CompletionGate> => {
        // Committed and checked before the turn, on the tip this clone has (usually the one its
        // checks ran on): the turn is then only the push when nobody pushed since (its last holder
        // says what it pushed).
        await fetchesDone();
        const early = await trackedTip(runBranch);
        const failed = await commitOnto(attempt, early);
        if (failed) return failed;
        const { turns } = options;
        if (!turns) return (await integrate(attempt, [], undefined, early)).gate;
        let end: EndTurn | undefined;
        try {
          const taken = await turnOrTakenAlong(turns, attempt);
          if (taken === 'taken-along') return { ok: true };
          end = taken;
        } catch (error) {
          // The turn only spares work: without it the compare-and-swap still keeps the result right.
          logger.warn({ err: error, taskId: task.id }, 'integrating without a turn: they could not be read');
          return (await integrate(attempt, [], undefined, early)).gate;
        }
        let pushed: string | undefined;
        let shared: Promise<void> | undefined;
        try {
          const offered = end.offered ?? (await turns.offered(runBranch, MAX_TAKEN_ALONG + 1).catch(() => []));
          const others = offered.filter((c) => c.taskId !== task.id);
          const result = await integrate(attempt, others.slice(0, MAX_TAKEN_ALONG), end.lastPushed, early);
          ({ pushed, shared } = result);
          // Withdrawn while the turn is held, so that no one takes along a commit its worker gave up on.
          if (!result.gate.ok && offeredOwn) await turns.settle(runBranch, [], [task.id]).catch(() => undefined);
          return result.gate;
        } finally {
          // The result is on the remote: ending the turn (and handing on the tip) need not hold up the
          // task. The tip's objects go first, so that the next holder has them when its turn starts.
          void (async () => {
            await shared;
            await end(pushed);
          })();
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
        const sha = await readHead(dir);
        await turns.offer(runBranch, { taskId: task.id, attempt, sha, checks: checkCommands(task) });
        offeredOwn = true;
        return true;
      };
      /**
       * The run branch's tip to merge: the one this clone already has when it is what the turn's
       * last holder pushed (the fetch started when the agent ended usually brought it), else one
       * fetched now, with the commits of `others` to take along.
       */
      const tipToMerge = async (others: readonly OfferedCommit[], lastPushed: string | undefined): Promise<string> => {
        if (lastPushed && others.length === 0) {
          await fetchesDone();
          const tracked = await trackedTip(runBranch);
          if (tracked === lastPushed) return tracked;
        }
        await fetch(
          runBranch,
          others.map((c) => taskBranch(c.taskId)),
        );
        return trackedTip(runBranch);
      };
      /**
       * Commits the passing attempt on the run branch's `tip`: the tip's new work comes in under
       * the attempt's uncommitted changes (a fast-forward, one git run, no merge commit; none when
       * the checks already ran on it), then they are committed and, when the tip brought new work,
       * the task's checks run again on the result. Changes that touch the same
       * files cannot come in that way: the attempt is committed where it is and the tip merged,
       * conflicts and all. The refusal when it conflicts or a check fails there.
       */
      const commitOnto = async (attempt: number, tip: string): Promise<Refusal | undefined> => {
        const forward = tip === (await readHead(dir)) ? undefined : await git(['merge', '--ff-only', tip], dir);
        // On the task's path: normal priority. Staged when the agent ended, unless that failed.
        const message = taskCommitMessage(task.id, attempt);
        if ((await staged) !== undefined) await commitStaged(dir, message, identity, 0);
        else await commitAll(dir, message, identity, 0);
        staged = undefined;
        if (forward === undefined) return undefined;
        if (forward.code !== 0) return mergeAndCheck(attempt, tip);
        return upToDate(forward.stdout) ? undefined : recheck(attempt, tip);
      };
      /**
       * Merges the run branch's `tip` into the task's commit and runs the task's checks on the
       * result when the tip brought others' work; the refusal when it conflicts or a check fails.
       */
      const mergeAndCheck = async (attempt: number, tip: string): Promise<Refusal | undefined> => {
        const merge = await git(['merge', '--no-edit', '--no-verify', '-m', `baton: integrate ${task.id}`, tip], dir, identity);
        if (merge.code !== 0) {
          conflicts += 1;
          const gate = await conflictGate(dir, runBranch, tip, task.id, options.limits ?? {}, conflicts);
          onEvent({ type: 'integration', taskId: task.id, attempt, ok: false, detail: gate.error });
          return gate;
        }
        return upToDate(merge.stdout) ? undefined : recheck(attempt, tip);
      };
      /** Others' work came in: the task's checks must still pass on the result. */
      const recheck = async (attempt: number, tip: string): Promise<Refusal | undefined> => {
        const failed = await failingCheck(checkCommands(task), dir);
        if (!failed) return undefined;
        await gitOk(['reset', '--hard', '--quiet', tip], dir);
        const error = `after merging ${runBranch}: ${failed}`;
        onEvent({ type: 'integration', taskId: task.id, attempt, ok: false, detail: error });
        return { ok: false, error, context: '', contextType: 'merge_conflict', extraAttempt: false };
      };
      /**
       * Integrates the task's commit; `pushed` is the run branch's new tip when it did. `merged` is
       * a tip already merged and checked: when it is still the branch's (`lastPushed`, and no
       * commits to take along), the push follows at once.
       */
      const integrate = async (
        attempt: number,
        others: readonly OfferedCommit[],
        lastPushed?: string,
        merged?: string,
      ): Promise<{ gate: CompletionGate; pushed?: string; shared?: Promise<void> }> => {
        for (let race = 0; race < MAX_PUSH_RACES; race++) {
          const current = race === 0 && others.length === 0 && merged !== undefined && merged === lastPushed;
          if (!current) {
            const tip = await tipToMerge(others, race === 0 ? lastPushed : undefined);
            const failed = tip === merged ? undefined : await mergeAndCheck(attempt, tip);
            if (failed) return { gate: failed };
            merged = tip;
          }
          const along = options.turns && others.length > 0 ? await takeAlong(dir, others, identity, options.turns.by) : [];
          // The compare-and-swap: a plain push of the run branch only succeeds as a fast-forward of
          // what we fetched; --atomic pushes the task branch with it, or neither.
          const head = await readHead(dir);
          const base = merged;
          // The tip's objects for the other workers, packed beside the push in case it lands.
          const packing = base ? tips.pack(head, base) : undefined;
          const push = await git(['push', '--quiet', '--atomic', remote, `+HEAD:refs/heads/${ref}`, `HEAD:refs/heads/${runBranch}`], dir);
          if (push.code === 0) {
            const pushed = head;
            const shared = packing && base ? tips.share(runBranch, base, pushed, packing) : undefined;
            // Pushed: a lost settle only makes the others integrate alone (their merges are then no-ops).
            const settled = along.length > 0 || offeredOwn ? options.turns : undefined;
            await settled?.settle(runBranch, along, [task.id, ...along.map((a) => a.commit.taskId)]).catch((error: unknown) => {
              logger.warn({ err: error }, 'could not record the commits taken along; their workers integrate them again (no-ops)');
            });
            onEvent({ type: 'integration', taskId: task.id, attempt, ok: true, detail: `pushed to ${remote}/${runBranch}` });
            return { gate: { ok: true }, pushed, ...(shared ? { shared } : {}) };
          }
          logger.info({ taskId: task.id, race }, `${remote}/${runBranch} moved during integration; fetching and merging again`);
        }
        const error = `could not push to ${remote}/${runBranch}: it kept moving (${MAX_PUSH_RACES} races)`;
        return { gate: { ok: false, error, context: '', contextType: 'merge_conflict', extraAttempt: false } };
      };
      return {
        dir,
        workspace: siteWorkspace(dir, first, { agentDone, beforeChecks: catchUpWorktree }),
        complete,
        release: async () => {
          if (options.keepWorktrees) return;
          ready.set(dir, makeReady(dir, runBranch));
          idle.push(dir);
        },
      };
    },
  });

  const close = async (): Promise<void> => {
    if (options.keepWorktrees) return;
    await Promise.all(ready.values());
    await fetching(() => worktrees(() => discardWorktrees(repo, root, made)));
    made.clear();
    idle.length = 0;
    ready.clear();
  };
  return { forBranch, close };
}

type Refusal = Extract<CompletionGate, { ok: false }>;

/** git says so when a merge brought nothing new (its messages are in English: LC_ALL=C). */
function upToDate(mergeOutput: string): boolean {
  return /^Already up.to.date/m.test(mergeOutput);
}

/** An idle slot made ready for its next task: clean, and checked out (detached) at `commit`. */
interface ReadySlot {
  branch: string;
  commit: string;
  /** When it was checked out. */
  at: number;
  snapshot: Promise<WorkspaceSnapshot>;
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
