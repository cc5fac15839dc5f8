import type { Dispatch, Task } from '../ledger/index.js';
import { HELPER_MODE } from '../precontext/index.js';
import type { Provider } from '../providers/index.js';
import { type AttemptBudget, allDispatches, attemptBudgetOf } from './attempt-budget.js';
import { blockTask } from './block-task.js';
import { endStaleAgentGroups } from './end-stale-agents.js';
import type { ProviderChainOptions } from './provider-chain.js';
import { runTask, type TaskRunOptions } from './run-task.js';
import { siteCompletion } from './site-completion.js';
import type { TaskSites } from './task-site.js';

export interface RunClaimedOptions extends Pick<
  TaskRunOptions,
  'chain' | 'maxAttempts' | 'recentHistoryWindow' | 'checkTimeoutMs' | 'refreshSessions'
> {
  helperProviders: readonly Provider[];
  leaseMs: number;
  sites?: TaskSites;
}

/**
 * Runs a task this run has just claimed (and re-read): renews the lease while it runs, marks a
 * dead run's unfinished dispatches interrupted, continues the attempts after the highest one,
 * counting only attempts that ran and failed, and releases the claim at the end.
 */
export async function runClaimedTask(task: Task, options: RunClaimedOptions): Promise<Task> {
  const { ledger, owner } = options.chain;
  const lease = keepLease(task.id, options);
  try {
    // One read of the task's dispatches; a dead run's unfinished ones (rare) take a few more.
    const history = await allDispatches(ledger, task.id);
    const adopted = await adoptLanded(task, history, options.sites, options.chain);
    if (adopted) return adopted;
    const budget = history.some((d) => d.status === 'running')
      ? await resume(task.id, options)
      : attemptBudgetOf(history, options.maxAttempts);
    if (budget.lastAttempt < budget.firstAttempt) {
      // Every allowed attempt already ran and failed (a run died before recording the verdict).
      const reason = `Failed after ${budget.failed} attempts: ${budget.lastFailure ?? 'validation failed'}`.slice(0, 500);
      return await blockTask(task.id, reason, options.chain);
    }
    const site = options.sites ? await options.sites.open(task) : undefined;
    const base = { ...options.chain, signal: lease.signal };
    const chain = site ? { ...base, cwd: site.dir, workspace: site.workspace } : base;
    try {
      const running = await ledger.updateTask(task.id, { status: 'in_progress' });
      return await runTask(running, {
        chain,
        helperChain: { ...chain, providers: options.helperProviders },
        maxAttempts: budget.lastAttempt,
        firstAttempt: budget.firstAttempt,
        recentHistoryWindow: options.recentHistoryWindow,
        checkTimeoutMs: options.checkTimeoutMs,
        ...(options.refreshSessions ? { refreshSessions: options.refreshSessions } : {}),
        ...(site?.complete ? { beforeComplete: siteCompletion(site.complete, site.workspace, running, { ...options, chain }) } : {}),
      });
    } finally {
      await site?.release();
    }
  } finally {
    lease.stop();
    await ledger.releaseTask(task.id, owner).catch(() => false);
  }
}

/**
 * Renews the task's claim every third of the lease while it runs. Its signal aborts with the
 * run's, and when the lease is lost to another run (this process stalled past it): that run now
 * holds the task, so this one's agent is stopped rather than left to run beside the other's.
 */
function keepLease(taskId: string, options: RunClaimedOptions): { signal: AbortSignal; stop: () => void } {
  const { ledger, logger, owner } = options.chain;
  const lost = new AbortController();
  const renew = setInterval(
    () => {
      ledger
        .claimTask(taskId, owner, options.leaseMs)
        .then((claim) => {
          if (claim.ok || lost.signal.aborted) return;
          logger.error(
            { taskId, holder: claim.holder.owner },
            "task lease lost to another run (was this process stalled longer than the lease?); this run's agent is stopped",
          );
          lost.abort(new Error(`task lease lost to ${claim.holder.owner}`));
        })
        .catch((error: unknown) => logger.warn({ err: error, taskId }, 'lease renewal failed'));
    },
    Math.max(50, Math.floor(options.leaseMs / 3)),
  );
  const outer = options.chain.signal;
  return { signal: outer ? AbortSignal.any([outer, lost.signal]) : lost.signal, stop: () => clearInterval(renew) };
}

/**
 * A task a dead run left with `running` dispatches: an agent still running from one is ended
 * before the task resumes, the dispatches are marked interrupted, and the budget read again.
 */
async function resume(taskId: string, options: RunClaimedOptions): Promise<AttemptBudget> {
  const { ledger, logger } = options.chain;
  await endStaleAgentGroups(ledger, taskId, { logger, onEvent: options.chain.onEvent });
  const interrupted = await ledger.markInterrupted({ taskId });
  if (interrupted.length > 0)
    logger.warn({ taskId, dispatches: interrupted.map((d) => d.id) }, 'resumed: marked unfinished dispatches interrupted');
  return attemptBudgetOf(await allDispatches(ledger, taskId), options.maxAttempts);
}

/**
 * A task a dead run left `running` whose result is already on the run's branch (the run died
 * after its push landed, before recording it): that attempt's dispatch and the task are completed
 * with it, and no agent runs again. Undefined when nothing of the cut-short attempts landed.
 */
async function adoptLanded(
  task: Task,
  history: readonly Dispatch[],
  sites: TaskSites | undefined,
  chain: ProviderChainOptions,
): Promise<Task | undefined> {
  const cut = history.filter((d) => d.status === 'running' && d.mode !== HELPER_MODE);
  if (cut.length === 0 || !sites?.landed) return undefined;
  const landed = await sites.landed(task);
  const dispatch = landed && cut.find((d) => d.attempt === landed.attempt);
  if (!landed || !dispatch) return undefined;
  const summary = `Integrated into ${landed.into} (commit ${landed.commit.slice(0, 12)}) by attempt ${landed.attempt}, whose run stopped before recording it; adopted without running the agent again`;
  await chain.ledger.updateDispatch(dispatch.id, { status: 'completed', result: summary, finishedAt: chain.now() });
  // Whatever else that run left running (a helper's try) did not finish.
  await chain.ledger.markInterrupted({ taskId: task.id });
  const done = await chain.ledger.updateTask(task.id, { status: 'completed', resultSummary: summary });
  chain.logger.warn(
    { taskId: task.id, attempt: landed.attempt, commit: landed.commit },
    'adopted a result already integrated by a run that stopped',
  );
  chain.onEvent({ type: 'task-end', taskId: task.id, status: 'completed' });
  return done;
}
