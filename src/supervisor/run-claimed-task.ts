import type { Task } from '../ledger/index.js';
import type { Provider } from '../providers/index.js';
import { type AttemptBudget, allDispatches, attemptBudget, attemptBudgetOf } from './attempt-budget.js';
import { endStaleAgentGroups } from './end-stale-agents.js';
import type { ProviderChainOptions } from './provider-chain.js';
import { runTask } from './run-task.js';
import { siteCompletion } from './site-completion.js';
import type { TaskSites } from './task-site.js';

export interface RunClaimedOptions {
  chain: ProviderChainOptions;
  helperProviders: readonly Provider[];
  maxAttempts: number;
  leaseMs: number;
  recentHistoryWindow: number;
  checkTimeoutMs: number;
  sites?: TaskSites;
}

/**
 * Runs a task this run has just claimed (and re-read): renews the lease while it runs, marks a
 * dead run's unfinished dispatches interrupted, continues the attempts after the highest one,
 * counting only attempts that ran and failed, and releases the claim at the end.
 */
export async function runClaimedTask(task: Task, options: RunClaimedOptions): Promise<Task> {
  const { ledger, logger, owner } = options.chain;
  const renew = setInterval(
    () => {
      ledger
        .claimTask(task.id, owner, options.leaseMs)
        .then((claim) => {
          if (!claim.ok)
            logger.error(
              { taskId: task.id, holder: claim.holder.owner },
              'task lease lost to another run (was this process stalled longer than the lease?)',
            );
        })
        .catch((error: unknown) => logger.warn({ err: error, taskId: task.id }, 'lease renewal failed'));
    },
    Math.max(50, Math.floor(options.leaseMs / 3)),
  );
  try {
    // One read of the task's dispatches; a dead run's unfinished ones (rare) take a few more.
    const history = await allDispatches(ledger, task.id);
    const budget = history.some((d) => d.status === 'running')
      ? await resume(task.id, options)
      : attemptBudgetOf(history, options.maxAttempts);
    if (budget.lastAttempt < budget.firstAttempt) {
      // Every allowed attempt already ran and failed (a run died before recording the verdict).
      const reason = `Failed after ${budget.failed} attempts: ${budget.lastFailure ?? 'validation failed'}`.slice(0, 500);
      const blocked = await ledger.updateTask(task.id, { status: 'blocked', blockReason: reason });
      options.chain.onEvent({ type: 'task-end', taskId: task.id, status: 'blocked', reason });
      return blocked;
    }
    const site = options.sites ? await options.sites.open(task) : undefined;
    const chain = site ? { ...options.chain, cwd: site.dir, workspace: site.workspace } : options.chain;
    try {
      const running = await ledger.updateTask(task.id, { status: 'in_progress' });
      return await runTask(running, {
        chain,
        helperChain: { ...chain, providers: options.helperProviders },
        maxAttempts: budget.lastAttempt,
        firstAttempt: budget.firstAttempt,
        recentHistoryWindow: options.recentHistoryWindow,
        checkTimeoutMs: options.checkTimeoutMs,
        ...(site?.complete ? { beforeComplete: siteCompletion(site.complete, site.workspace, running, options) } : {}),
      });
    } finally {
      await site?.release();
    }
  } finally {
    clearInterval(renew);
    await ledger.releaseTask(task.id, owner).catch(() => false);
  }
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
  return attemptBudget(ledger, taskId, options.maxAttempts);
}
