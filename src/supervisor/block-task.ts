import type { Task } from '../ledger/index.js';
import { ALL_PROVIDERS_OPEN } from './defaults.js';
import type { ProviderFailure } from './describe-failures.js';
import { attemptsPerTask } from './metrics.js';
import type { ProviderChainOptions } from './provider-chain.js';
import type { SupervisorDeps } from './types.js';

/** Blocks the task with `reason` (the ledger keeps its first 500 characters) and reports it. */
export async function blockTask(taskId: string, reason: string, deps: Pick<SupervisorDeps, 'ledger' | 'onEvent'>): Promise<Task> {
  const blocked = await deps.ledger.updateTask(taskId, { status: 'blocked', blockReason: reason.slice(0, 500) });
  deps.onEvent({ type: 'task-end', taskId, status: 'blocked', reason });
  return blocked;
}

/**
 * Blocks a task whose attempts are used up: `used` attempts ran, `why` says what failed last
 * ("Failed after 2 attempts: …", or seed 000's "All providers circuit-broken: …" as it is).
 */
export async function blockAfterAttempts(taskId: string, used: number, why: string, chain: ProviderChainOptions): Promise<Task> {
  attemptsPerTask().observe({ status: 'blocked' }, used);
  const reason = why.startsWith(ALL_PROVIDERS_OPEN) ? why : `Failed after ${used} attempt${used === 1 ? '' : 's'}: ${why}`;
  return blockTask(taskId, reason, chain);
}

/**
 * Blocks a task when no provider could run its next attempt. That attempt never started, so the
 * reason counts only the attempts whose agents ran, then says what kept each provider out (seed
 * 000's "All providers circuit-broken", with each breaker's reopening time).
 */
export async function blockWithoutAgent(
  taskId: string,
  attempt: number,
  run: { failure: string; failures: readonly ProviderFailure[] },
  chain: ProviderChainOptions,
): Promise<Task> {
  const ran = attempt - 1;
  // Waiting helps only a shared breaker that reopens; a local config error needs a fix.
  const waitable = run.failures.some((f) => f.kind === 'breaker_open' && !f.local && f.openUntil !== undefined);
  const wait = waitable ? `; --max-wait ${chain.maxWaitMs} ms` : '';
  const reason = `No agent could run attempt ${attempt} (${ran} attempt${ran === 1 ? '' : 's'} ran${wait}): ${run.failure}`;
  attemptsPerTask().observe({ status: 'blocked' }, ran);
  return blockTask(taskId, reason, chain);
}
