import * as z from 'zod';
import { BatonError } from '../errors/index.js';
import { MAX_TASK_ID_LENGTH } from './ids.js';
import type { LedgerLine } from './types.js';
import { DISPATCH_STATUSES, RECORD_COLLECTIONS, TASK_STATUSES } from './types.js';
import { describeJsonError } from '../util/index.js';

// The stored shapes, also what the Redis backend checks its rows against (redis/redis-schemas.ts).
const ms = z.number().int().nonnegative();
const strings = z.array(z.string());

export const taskSchema = z.object({
  id: z.string().min(1).max(MAX_TASK_ID_LENGTH, `at most ${MAX_TASK_ID_LENGTH} characters`),
  title: z.string(),
  instructions: z.string(),
  intent: z.string(),
  acceptanceCriteria: z.array(z.object({ description: z.string(), check: z.string().optional() })),
  status: z.enum(TASK_STATUSES),
  priority: z.number(),
  difficulty: z.string().optional(),
  mode: z.string().optional(),
  dependsOn: strings,
  resultSummary: z.string().optional(),
  blockReason: z.string().optional(),
  options: z.record(z.string(), z.unknown()),
  links: z.record(z.string(), z.unknown()),
  createdAt: ms,
  updatedAt: ms,
  completedAt: ms.optional(),
});

export const dispatchSchema = z.looseObject({
  id: z.string().min(1),
  seq: z.number().int().positive(),
  taskId: z.string().min(1),
  attempt: z.number().int().nonnegative(),
  provider: z.string().min(1),
  status: z.enum(DISPATCH_STATUSES),
  filesCreated: strings,
  filesUpdated: strings,
  filesDeleted: strings,
  validationErrors: strings,
  startedAt: ms,
});

export const breakerSchema = z.looseObject({
  provider: z.string().min(1),
  state: z.enum(['closed', 'open', 'half_open']),
  failureCount: z.number().int().nonnegative(),
  generation: z.number().int().nonnegative(),
  updatedAt: ms,
});

const claimSchema = z.object({ taskId: z.string().min(1), owner: z.string().min(1), leaseUntil: ms });

export const recordSchema = z.object({
  id: z.string().min(1),
  status: z.string().optional(),
  taskId: z.string().optional(),
  createdAt: ms,
  updatedAt: ms,
  data: z.record(z.string(), z.unknown()),
});

const lineSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('task'), record: taskSchema }),
  z.object({ kind: z.literal('dispatch'), record: dispatchSchema }),
  z.object({ kind: z.literal('breaker'), record: breakerSchema }),
  z.object({ kind: z.literal('claim'), record: claimSchema }),
  z.object({
    kind: z.literal('record'),
    collection: z.enum(RECORD_COLLECTIONS),
    record: recordSchema,
  }),
]);

/**
 * Parses and validates a JSON Lines export. All lines are checked before any is returned, so an
 * import built on it writes nothing when one line is bad.
 *
 * @throws BatonError('IMPORT_INVALID') naming the source, the 1-based line number and the field path.
 */
export function parseLedgerLines(text: string, source = 'input'): LedgerLine[] {
  const lines: LedgerLine[] = [];
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]?.trim();
    if (!row) continue;
    const lineNo = i + 1;
    let json: unknown;
    try {
      json = JSON.parse(row);
    } catch (error) {
      throw invalid(source, lineNo, '(line)', `not valid JSON (${describeJsonError(row, error)})`);
    }
    const parsed = lineSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue && issue.path.length > 0 ? issue.path.join('.') : 'kind';
      throw invalid(source, lineNo, field, issue?.message ?? 'invalid');
    }
    lines.push(parsed.data);
  }
  return lines;
}

/**
 * One export line as text (no trailing newline), canonical: the keys of every object sorted (at
 * every depth, user maps included, as RFC 8785 orders them), so the same records give the same
 * bytes whichever backend stored them and in whatever order it rebuilt their fields.
 */
export function formatLedgerLine(line: LedgerLine): string {
  return JSON.stringify(sortedKeys(line));
}

/** A copy with every object's own keys in sorted order (null-prototype objects: `__proto__` stays a key). */
function sortedKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(sortedKeys);
  const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort()) sorted[key] = sortedKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

function invalid(source: string, line: number, field: string, problem: string): BatonError {
  return new BatonError('IMPORT_INVALID', `${source}:${line}: field "${field}": ${problem}. Nothing was imported.`, {
    details: { file: source, line, field },
  });
}
