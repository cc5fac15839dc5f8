import type { Task } from '../ledger/index.js';
import type { Provider } from '../providers/index.js';
import { type AttemptBudget, allDispatches, attemptBudgetOf } from './attempt-budget.js';
import { adoptLanded } from './adopt-landed.js';
import { blockTask } from './block-task.js';
import { endStaleAgentGroups } from './end-stale-agents.js';
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
