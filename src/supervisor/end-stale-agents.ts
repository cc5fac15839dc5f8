import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatch, Ledger } from '../ledger/index.js';
import { signalGroup } from '../spawner/index.js';
import { allDispatches } from './attempt-budget.js';
import type { Logger } from '../observability/index.js';
import { DEFAULT_KILL_GRACE_MS, liveGroupMembers } from '../providers/index.js';
import type { EventSink } from './types.js';

/** How often the group is checked while waiting for it to die. */
const POLL_MS = 50;
/** How long to wait for the group to vanish after SIGKILL (the kernel is quick; this is slack). */
const AFTER_KILL_MS = 2_000;

export interface EndStaleAgentsOptions {
  logger: Logger;
  onEvent: EventSink;
  /** SIGTERM-to-SIGKILL grace. @default DEFAULT_KILL_GRACE_MS */
  graceMs?: number;
}

/** One agent group a resumed run found still running and ended. */
export interface EndedAgent {
  dispatchId: string;
  attempt: number;
  pid: number;
  /** The last signal it needed: SIGTERM when that sufficed, else SIGKILL. */
  signal: 'SIGTERM' | 'SIGKILL';
  /** Whether every member was gone when Baton stopped waiting. */
  gone: boolean;
}

/**
 * Before a resumed run starts the next attempt of a task: finds the task's `running` dispatches (a
 * crashed supervisor's attempts) whose recorded agent process group is still alive on this host
 * (same pid and start time, so a reused pid is never signalled), ends each group (SIGTERM, then
 * SIGKILL after the grace period), waits until its members are gone, logs and reports it, and
 * writes what happened into the dispatch's result. Attempts of one task must never overlap in a
 * workspace; an agent left running by a SIGKILLed supervisor would (with the default 15-minute
 * agent timeout, for minutes). Groups on other hosts are left alone: their lease tells.
 */
export async function endStaleAgentGroups(ledger: Ledger, taskId: string, options: EndStaleAgentsOptions): Promise<EndedAgent[]> {
  const ended: EndedAgent[] = [];
  for (const dispatch of await allDispatches(ledger, taskId, 'running')) {
    const recorded = dispatch.agentProcess;
    if (recorded === undefined || liveGroupMembers(recorded).length === 0) continue;
    const result = await endGroup(recorded, options.graceMs ?? DEFAULT_KILL_GRACE_MS);
    const entry: EndedAgent = { dispatchId: dispatch.id, attempt: dispatch.attempt, pid: recorded.pid, ...result };
    ended.push(entry);
    const note = `agent process group ${recorded.pid} was still running after its supervisor died; the resumed run ended it with ${result.signal}${result.gone ? '' : ' (some members did not exit)'}`;
    options.logger.warn({ event: 'stale-agent-ended', taskId, ...entry }, note);
    options.onEvent({ type: 'stale-agent-ended', taskId, attempt: dispatch.attempt, pid: recorded.pid, ...result });
    await ledger.updateDispatch(dispatch.id, { result: note });
  }
  return ended;
}

async function endGroup(recorded: NonNullable<Dispatch['agentProcess']>, graceMs: number): Promise<Pick<EndedAgent, 'signal' | 'gone'>> {
  signalGroup(recorded.pid, 'SIGTERM');
  if (await waitGone(recorded, graceMs)) return { signal: 'SIGTERM', gone: true };
  // Checked again right before: the group must still be the recorded one when SIGKILL goes out.
  if (liveGroupMembers(recorded).length > 0) signalGroup(recorded.pid, 'SIGKILL');
  return { signal: 'SIGKILL', gone: await waitGone(recorded, AFTER_KILL_MS) };
}

async function waitGone(recorded: NonNullable<Dispatch['agentProcess']>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (liveGroupMembers(recorded).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await delay(POLL_MS);
  }
}
