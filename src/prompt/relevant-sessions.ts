import { type AgentSessionRecord, type LedgerRecords, listAgentSessions } from '../ledger/index.js';
import { supervisedLink } from './light.js';

/** Sessions read at most to find the relevant ones (supervised tries are skipped, so read past them). */
const READ_FACTOR = 4;

function didWork(record: AgentSessionRecord): boolean {
  const d = record.data;
  return d.cutOff !== undefined || d.failures.length + d.filesCreated.length + d.filesUpdated.length + d.filesDeleted.length > 0;
}

/**
 * The workspace's latest agent CLI sessions a task prompt shows, newest first: hook-recorded and
 * imported alike, empty ones and `baton run`'s own tries left out (`limit` is at least 1). When none of the newest `limit`
 * changed a file, failed or was cut off, the newest one that did takes the last place.
 */
export async function relevantSessions(
  ledger: LedgerRecords,
  options: { limit: number; workspace?: string },
): Promise<AgentSessionRecord[]> {
  const read = await listAgentSessions(ledger, { limit: options.limit * READ_FACTOR, scan: 200, workspace: options.workspace });
  const own = read.filter((record) => supervisedLink(record) === undefined).sort((a, b) => b.data.lastActivityAt - a.data.lastActivityAt);
  const shown = own.slice(0, options.limit);
  if (shown.length === options.limit && !shown.some(didWork)) {
    const older = own.slice(options.limit).find(didWork);
    if (older) shown[options.limit - 1] = older;
  }
  return shown;
}
