import type { AgentSessionRecord, Breaker, Dispatch, LedgerCore, TaskStatus } from '../../../ledger/index.js';
// ledger.js and agent-sessions.js, not the index: the index also exports the JSON-lines parser, which loads zod.
import { listAgentSessions } from '../../../ledger/light.js';
import { isBreakerCapable, isRecordCapable } from '../../../ledger/ledger.js';

export interface StatusReport {
  ledger: { backend: string; location: string };
  tasks: Record<TaskStatus, number> & { total: number };
  dispatches: number;
  openBreakers: Breaker[];
  recentDispatches: Dispatch[];
  /** The latest sessions of agent CLIs (Claude Code, Gemini CLI, Codex) recorded by `baton hooks`. */
  agentSessions: AgentSessionRecord[];
}

/**
 * Reads what `baton status` shows: every breaker not closed, with the time it may move to half-open
 * (past or not: the next run decides). A ledger without the breaker capability has no breakers to show.
 */
export async function gatherStatus(ledger: LedgerCore, options: { dispatchLimit: number }): Promise<StatusReport> {
  const [counts, total, breakers, recent, agentSessions] = await Promise.all([
    ledger.countTasksByStatus(),
    ledger.countDispatches(),
    isBreakerCapable(ledger) ? ledger.listBreakers() : Promise.resolve([] as Breaker[]),
    ledger.recentDispatches(options.dispatchLimit),
    isRecordCapable(ledger) ? listAgentSessions(ledger, { limit: 5 }) : Promise.resolve([] as AgentSessionRecord[]),
  ]);
  const taskTotal = Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    ledger: { backend: ledger.backend, location: ledger.location },
    tasks: { ...counts, total: taskTotal },
    dispatches: total,
    openBreakers: breakers.filter((b) => b.state !== 'closed'),
    recentDispatches: recent,
    agentSessions,
  };
}

export function renderStatus(status: StatusReport): string {
  const { tasks } = status;
  const lines = [
    `Ledger: ${status.ledger.backend} ${status.ledger.location}`,
    `Tasks: ${tasks.total} (pending ${tasks.pending}, in progress ${tasks.in_progress}, completed ${tasks.completed}, blocked ${tasks.blocked}, archived ${tasks.archived})`,
    `Dispatches: ${status.dispatches}`,
  ];
  if (status.openBreakers.length === 0) lines.push('Circuit breakers: all closed');
  else {
    lines.push('Circuit breakers:');
    for (const b of status.openBreakers) {
      const until = b.until ? ` until ${new Date(b.until).toISOString()}` : '';
      lines.push(`  ${b.provider}: ${b.state}${until}${b.reason ? ` (${b.reason})` : ''}`);
    }
  }
  if (status.agentSessions.length > 0) {
    lines.push('Agent sessions (baton hooks):');
    for (const s of status.agentSessions) {
      lines.push(`  ${new Date(s.data.lastActivityAt).toISOString()} ${s.id} ${s.status ?? 'active'}: ${s.data.summary}`);
    }
  }
  if (status.recentDispatches.length > 0) {
    lines.push('Last dispatches:');
    for (const d of status.recentDispatches) {
      const when = new Date(d.startedAt).toISOString();
      lines.push(`  ${when} ${d.taskId} #${d.attempt} ${d.provider} ${d.status}${d.outcome ? ` ${d.outcome}` : ''}`);
    }
  }
  return lines.join('\n');
}
