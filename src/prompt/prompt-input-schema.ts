import * as z from 'zod';
import { objectWithMethods } from '../util/index.js';

/** The check of loadPromptState's arguments from code: strict options, so `{ window: -1 }` or an unknown key is an error. */

const count = z.number().int().min(0);

export const promptStateOptionsSchema = z.strictObject({
  window: count.optional(),
  maxBlockers: count.optional(),
  resultTokens: count.optional(),
  sessions: count.optional(),
  workspace: z.string().min(1).optional(),
});

export const loadArgsSchema = z.strictObject({
  ledger: objectWithMethods(['recentCompletedTasks', 'listTasks'], 'a Ledger (from openLedger or new MemoryLedger())'),
  options: promptStateOptionsSchema,
});
