import * as z from 'zod';
import type { Ledger } from '../ledger/index.js';
import { REFRESH_FORMATS, type RefreshOptions } from './types.js';
import { envOption, functionOption, objectWithMethods, parseInput, type SchemaFor } from '../util/index.js';

/**
 * refreshContext's options, checked before anything is read: strict, so `{ workspaceDir }` or
 * `{ task_id }` is an error naming the spelling expected. The workspace and the ledger are checked
 * first (requireSources in refresh-context.ts); the format, the limits and `since` keep their own
 * messages there, shared with the MCP tool and the CLI.
 */
const optionsSchema = z.strictObject({
  workspace: z.string().min(1, 'expected the workspace folder'),
  ledger: objectWithMethods<Ledger>(['getTask', 'listTasks', 'lastDispatches'], 'a Ledger (from openLedger or new MemoryLedger())'),
  taskId: z.string().min(1).optional(),
  format: z.string().optional(),
  includeGit: z.boolean().optional(),
  includeTechDebt: z.boolean().optional(),
  includeDispatches: z.boolean().optional(),
  includeTaskArtifacts: z.boolean().optional(),
  includeResearch: z.boolean().optional(),
  dispatchLimit: z.number().optional(),
  commitLimit: z.number().optional(),
  generateContinuationPrompt: z.boolean().optional(),
  sessionId: z.string().min(1).optional(),
  gitCache: objectWithMethods(['clear'], 'a GitCache').optional(),
  fresh: z.boolean().optional(),
  now: functionOption<() => number>().optional(),
  env: envOption.optional(),
  audit: z.boolean().optional(),
  since: z.string().optional(),
  saveSnapshot: z.boolean().optional(),
  maxTokens: z.number().int().min(1).optional(),
  sent: z.strictObject({ escaped: z.boolean().optional(), maxBytes: z.number().int().min(1).optional() }).optional(),
  resultCache: objectWithMethods(['getOrCompute'], 'a ResultCache').optional(),
  renderWorker: objectWithMethods(['render'], 'a SnapshotRenderer ({ render(snapshot, job) })').optional(),
  yieldTurn: functionOption<() => Promise<void>>().optional(),
});

// An option added to RefreshOptions (or widened) and not here fails the type check, naming the key.
export const REFRESH_OPTIONS_MATCH: SchemaFor<RefreshOptions, typeof optionsSchema> = true;

/** @throws BatonError CONFIG_INVALID naming each unknown key (with the spelling expected) and each value of the wrong type. */
export function checkRefreshOptions(options: unknown): void {
  parseInput(optionsSchema, options, { what: 'refreshContext options' });
}

export const snapshotQuerySchema = z.strictObject({
  taskId: z.string().min(1).optional(),
  limit: z.number().int().min(1).optional(),
  cursor: z.string().optional(),
});

/** A saved snapshot's id: `snap-` and a ledger id. */
export const SNAPSHOT_ID_PATTERN = /^snap-[A-Za-z0-9_-]+$/;

export const snapshotInfoSchema = z.strictObject({
  format: z.enum(REFRESH_FORMATS),
  tokens: z.number().int().min(0),
  id: z.string().regex(SNAPSHOT_ID_PATTERN, 'expected a snapshot id (snap-...)').optional(),
});

/** listSnapshots' query. @throws BatonError CONFIG_INVALID naming each problem. */
export function checkSnapshotQuery(query: unknown): void {
  parseInput(snapshotQuerySchema, query, { what: 'listSnapshots query' });
}

/** saveSnapshot's info. @throws BatonError INPUT_INVALID naming each problem. */
export function checkSnapshotInfo(info: unknown): void {
  parseInput(snapshotInfoSchema, info, { what: 'saveSnapshot info', code: 'INPUT_INVALID' });
}
