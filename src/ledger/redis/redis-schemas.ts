import * as z from 'zod';
import { BatonError } from '../../errors/index.js';
import type { Breaker, Dispatch, LedgerRecord, Task } from '../types.js';
import * as lines from '../ledger-lines.js';

/*
 * Rows read back from Redis are outside data (another process, an older version or a human with
 * redis-cli may have written them), so they are checked here, at the edge, and nowhere else.
 * Loose objects keep fields this version does not know instead of silently dropping them.
 */

// The export format's record schemas, loose here: fields this version does not know are kept.
const taskSchema = lines.taskSchema
  .extend({ acceptanceCriteria: z.array(z.looseObject({ description: z.string(), check: z.string().optional() })) })
  .loose();
// A dispatch's seq is kept apart from its JSON (a hash field, or an index entry's score: parseSeq).
const dispatchSchema = lines.dispatchSchema.omit({ seq: true });
const recordSchema = lines.recordSchema.loose();

const DISPATCH_STATUS_SET: ReadonlySet<unknown> = new Set(dispatchSchema.shape.status.options);

function isStringArray(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** A whole number from 0 up (attempts, timestamps in ms), as the schemas' `int().nonnegative()`. */
function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/**
 * dispatchSchema's checks written out by hand. Dispatches are read a hundred at a time (recent
 * lists) and zod costs as much as JSON.parse per row, so rows passing this skip zod; a row failing
 * it goes through zod, which names the bad field. It must never accept what dispatchSchema rejects.
 */
function isStoredDispatch(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const d = value as Record<string, unknown>;
  return (
    typeof d.id === 'string' &&
    d.id.length > 0 &&
    typeof d.taskId === 'string' &&
    d.taskId.length > 0 &&
    isCount(d.attempt) &&
    typeof d.provider === 'string' &&
    d.provider.length > 0 &&
    DISPATCH_STATUS_SET.has(d.status) &&
    isStringArray(d.filesCreated) &&
    isStringArray(d.filesUpdated) &&
    isStringArray(d.filesDeleted) &&
    isStringArray(d.validationErrors) &&
    isCount(d.startedAt)
  );
}

const SCHEMAS = { task: taskSchema, dispatch: dispatchSchema, breaker: lines.breakerSchema, record: recordSchema };

interface StoredKinds {
  task: Task;
  dispatch: Omit<Dispatch, 'seq'>;
  breaker: Breaker;
  record: LedgerRecord;
}

/**
 * Parses and checks a stored JSON value; throws LEDGER_CORRUPT naming the key (and the hash field,
 * when the value is one of many in a hash) and the bad field.
 */
export function parseStored<K extends keyof StoredKinds>(kind: K, key: string, raw: string, field?: string): StoredKinds[K] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw corrupt(kind, key, field, `not JSON (${(error as Error).message})`, error);
  }
  if (kind === 'dispatch' && isStoredDispatch(value)) return value as StoredKinds[K];
  const result = SCHEMAS[kind].safeParse(value);
  if (!result.success) {
    const why = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw corrupt(kind, key, field, why, result.error);
  }
  return result.data as unknown as StoredKinds[K];
}

/** Parses a dispatch's stored seq (a hash field, or the score of an index entry `field`). */
export function parseSeq(key: string, raw: string | null, field?: string): number {
  const seq = Number(raw);
  if (raw === null || !Number.isSafeInteger(seq) || seq <= 0) {
    throw corrupt('dispatch', key, field, `seq: expected a positive integer, got ${JSON.stringify(raw)}`);
  }
  return seq;
}

function corrupt(kind: string, key: string, field: string | undefined, why: string, cause?: unknown): BatonError {
  const where = field === undefined ? `key "${key}"` : `key "${key}" field "${field}"`;
  return new BatonError('LEDGER_CORRUPT', `Corrupt ${kind} in Redis at ${where}: ${why}`, {
    cause,
    details: field === undefined ? { key, kind } : { key, field, kind },
  });
}
