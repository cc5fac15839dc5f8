import * as z from 'zod';
import { functionOption, parseInput } from '../util/index.js';
import { MAX_TIMEOUT_MS } from './max-timeout.js';

/**
 * openLedger's options as a zod schema, loaded only when the quick check in open-ledger.ts finds
 * something wrong: `baton hook` and `baton status` open a ledger at start-up and must not load zod.
 */
export const optionsSchema = z.strictObject({
  spec: z.string().min(1).optional(),
  cwd: z.string().min(1).optional(),
  // Infinity is a timeout too (zod's number refuses it): it waits as long as a timer can (MAX_TIMEOUT_MS).
  connectTimeoutMs: z
    .custom<number>(
      (value) => typeof value === 'number' && value > 0,
      'a positive number of milliseconds (Infinity waits the longest a timer can)',
    )
    .optional(),
  namespace: z.string().min(1).optional(),
  create: z.boolean().optional(),
  readOnlyFallback: z.boolean().optional(),
  busyTimeoutMs: z
    .number(`a number of milliseconds from 0 to ${MAX_TIMEOUT_MS}`)
    .min(0, `a number of milliseconds from 0 to ${MAX_TIMEOUT_MS}`)
    .max(MAX_TIMEOUT_MS, `a number of milliseconds from 0 to ${MAX_TIMEOUT_MS}`)
    .optional(),
  now: functionOption<() => number>().optional(),
});

/** @throws BatonError CONFIG_INVALID naming each problem (an unknown key with the spelling expected). */
export function checkOpenLedgerOptions(options: unknown): void {
  parseInput(optionsSchema, options, { what: 'openLedger options' });
}
