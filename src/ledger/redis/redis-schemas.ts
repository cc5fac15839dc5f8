import { z } from 'zod';
import { BatonError } from '../../errors/index.js';
import type { Breaker, Dispatch, LedgerRecord, Task } from '../types.js';
import { TASK_STATUSES } from '../types.js';

/*
 * Rows read back from Redis are outside data (another process, an older version or a human with
 * redis-cli may have written them), so they are checked here, at the edge, and nowhere else.
 * Loose objects keep fields this version does not know instead of silently dropping them.
 */

const timestamp = z.number().finite();
const strings = z.array(z.string());

const taskSchema = z.looseObject({
  id: z.string().min(1),
  title: z.string(),
  instructions: z.string(),
  intent: z.string(),
  acceptanceCriteria: z.array(z.looseObject({ description: z.string(), check: z.string().optional() })),
  status: z.enum(TASK_STATUSES as [string, ...string[]]),
  priority: z.number(),
  dependsOn: strings,
  options: z.record(z.string(), z.unknown()),
  links: z.looseObject({}),
  createdAt: timestamp,
  updatedAt: timestamp,
  completedAt: timestamp.optional(),
});

const dispatchSchema = z.looseObject({
  id: z.string().min(1),
  taskId: z.string(),
  attempt: z.number(),
  provider: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'interrupted']),
  filesCreated: strings,
  filesUpdated: strings,
  filesDeleted: strings,
  validationErrors: strings,
  startedAt: timestamp,
});

const breakerSchema = z.looseObject({
  provider: z.string(),
  state: z.enum(['closed', 'open', 'half_open']),
  failureCount: z.number(),
  generation: z.number().int(),
  updatedAt: timestamp,
});

const recordSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string().optional(),
  taskId: z.string().optional(),
  createdAt: timestamp,
  updatedAt: timestamp,
  data: z.record(z.string(), z.unknown()),
});

const SCHEMAS = { task: taskSchema, dispatch: dispatchSchema, breaker: breakerSchema, record: recordSchema };

interface StoredKinds {
  task: Task;
  dispatch: Omit<Dispatch, 'seq'>;
  breaker: Breaker;
  record: LedgerRecord;
}

/** Parses and checks a stored JSON value; throws LEDGER_CORRUPT naming the key and the bad field. */
export function parseStored<K extends keyof StoredKinds>(kind: K, key: string, raw: string): StoredKinds[K] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw corrupt(kind, key, `not JSON (${(error as Error).message})`, error);
  }
  const result = SCHEMAS[kind].safeParse(value);
  if (!result.success) {
    const why = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw corrupt(kind, key, why, result.error);
  }
  return result.data as unknown as StoredKinds[K];
}

/** Parses a dispatch's stored seq. */
export function parseSeq(key: string, raw: string | null): number {
  const seq = Number(raw);
  if (raw === null || !Number.isSafeInteger(seq) || seq <= 0) {
    throw corrupt('dispatch', key, `seq: expected a positive integer, got ${JSON.stringify(raw)}`);
  }
  return seq;
}

function corrupt(kind: string, key: string, why: string, cause?: unknown): BatonError {
  return new BatonError('LEDGER_CORRUPT', `Corrupt ${kind} in Redis at key "${key}": ${why}`, {
    cause,
    details: { key, kind },
  });
}
