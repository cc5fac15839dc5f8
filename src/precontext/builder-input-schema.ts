import * as z from 'zod';
import type { Logger } from '../observability/index.js';
import { objectWithMethods, parseInput } from '../util/index.js';

/**
 * The checks of the pre-context builders' inputs from code: strict options, and `dispatches` as
 * ledger.lastDispatches returns them (each record with its `attempt` and `provider`, lists of
 * strings). A record of another shape is an error naming it (`dispatches[0].attempt: expected a
 * number`), not an empty block. The supervisor reads its own ledger through the tolerant
 * `*FromLedger` builders, where a corrupt record of a shared ledger is skipped with a warning.
 */

const strings = z.array(z.string()).optional();

const dispatchSchema = z.looseObject({
  attempt: z.number({ error: 'expected the attempt number (a Dispatch from ledger.lastDispatches)' }).int().min(1),
  provider: z.string({ error: 'expected the provider name (a Dispatch from ledger.lastDispatches)' }).min(1),
  mode: z.string().optional(),
  outcome: z.string().optional(),
  result: z.string().optional(),
  filesCreated: strings,
  filesUpdated: strings,
  filesDeleted: strings,
  validationErrors: strings,
});

const count = z.number().int().min(0);

const limitsSchema = z.strictObject({
  maxLines: count.optional(),
  maxTokens: count.optional(),
  maxFiles: count.optional(),
  maxErrors: count.optional(),
  helperMaxAttempts: count.optional(),
});

const common = {
  dispatches: z.array(dispatchSchema, { error: 'expected an array of dispatches (ledger.lastDispatches(taskId, n))' }),
  limits: limitsSchema.optional(),
  logger: objectWithMethods<Pick<Logger, 'warn'>>(['warn'], 'a logger with warn() (pino, createLogger())').optional(),
};

const attempt = z.number().int().min(1);
const retrySchema = z.strictObject({ ...common, attempt });
const switchSchema = z.strictObject(common);
const helperSchema = z.strictObject({ ...common, attempt });

/** buildRetryContext's input, checked. @throws BatonError INPUT_INVALID naming each problem. */
export function checkRetryInput<T>(input: T): T {
  parseInput(retrySchema, input, { what: 'buildRetryContext input', code: 'INPUT_INVALID' });
  return input;
}

/** buildProviderSwitchContext's input, checked. @throws BatonError INPUT_INVALID naming each problem. */
export function checkProviderSwitchInput<T>(input: T): T {
  parseInput(switchSchema, input, { what: 'buildProviderSwitchContext input', code: 'INPUT_INVALID' });
  return input;
}

/** buildHelperContext's input, checked. @throws BatonError INPUT_INVALID naming each problem. */
export function checkHelperInput<T>(input: T): T {
  parseInput(helperSchema, input, { what: 'buildHelperContext input', code: 'INPUT_INVALID' });
  return input;
}
