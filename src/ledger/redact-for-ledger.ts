import { redactValueSync } from '../redact/index.js';
import type { LedgerLine } from './types.js';

/** Fields that name or number things: never masked, so ids and references stay whole. */
const NAMING_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'taskId',
  'dependsOn',
  'status',
  'provider',
  'owner',
  'claimedBy',
  'seq',
  'attempt',
]);

/**
 * A copy of what is about to be written to the ledger, every string masked by Baton's one
 * redactor (redact/) except the naming fields. Every backend's every write goes through it
 * (defaults.ts builds what each writes), so no secret reaches the ledger, and through it an
 * export, a refresh, the next session's context or the web view, whoever wrote it: the
 * supervisor, a hook, an MCP client, an import. Keys are copied as own properties (`__proto__`
 * stays a key).
 */
export function redactForLedger<T extends object>(input: T): T {
  const entries = Object.entries(input);
  // Masked as one object, so a key stays the context of its value (`data.password`).
  const masked = redactValueSync(Object.fromEntries(entries.filter(([key]) => !NAMING_FIELDS.has(key)))).value;
  return Object.fromEntries(entries.map(([key, value]) => [key, NAMING_FIELDS.has(key) ? value : masked[key]])) as T;
}

/** An import line with its record masked as any write is. */
export function redactLedgerLine(line: LedgerLine): LedgerLine {
  return { ...line, record: redactForLedger(line.record) } as LedgerLine;
}
