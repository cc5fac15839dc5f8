import type { LedgerRecords } from './ledger.js';
import type { LedgerRecord, Page } from './types.js';

/** The `status` of the `audit` records `baton handoff` writes, one per handoff. */
export const HANDOFF_AUDIT_STATUS = 'handoff';

/** The `data` of a handoff's audit record. Records written before `text` and `fromClient` existed lack them. */
export interface HandoffAuditData {
  /** Epoch ms. */
  at: number;
  /** The workspace the session belongs to (absolute). */
  workspace: string;
  /** The source session's ledger id (`codex-<id>`). */
  from: string;
  /** The source session's client (claude, codex, gemini, copilot). */
  fromClient?: string;
  /** The CLI handed to. */
  to: string;
  /** The handoff's size in tokens, and the budget it was built within. */
  tokens: number;
  budget: number;
  /** True: the target CLI was started with it; false: printed (`--print`, `--json`). */
  started: boolean;
  /** The handoff itself, masked by the ledger's write. */
  text?: string;
}

export type HandoffAuditRecord = LedgerRecord<HandoffAuditData>;

/**
 * The newest handoffs, newest first, optionally only those from one session (`from`). Reads at most
 * `scan` audit records (the collection holds other audits too, filtered by status).
 */
export async function listHandoffs(
  ledger: LedgerRecords,
  query: { from?: string; limit?: number; cursor?: string } = {},
): Promise<Page<HandoffAuditRecord>> {
  const limit = query.limit ?? 30;
  if (query.from === undefined) {
    return ledger.listRecords<HandoffAuditData>('audit', { status: HANDOFF_AUDIT_STATUS, limit, cursor: query.cursor });
  }
  const items: HandoffAuditRecord[] = [];
  let cursor = query.cursor;
  for (let read = 0; read < 500 && items.length < limit;) {
    const page = await ledger.listRecords<HandoffAuditData>('audit', { status: HANDOFF_AUDIT_STATUS, limit: 50, cursor });
    read += page.items.length;
    items.push(...page.items.filter((r) => r.data.from === query.from));
    cursor = page.nextCursor;
    if (cursor === undefined) break;
  }
  return { items: items.slice(0, limit) };
}
