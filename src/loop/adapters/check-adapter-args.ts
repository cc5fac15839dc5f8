import * as z from 'zod';
import { parseInput } from '../../util/index.js';
import type { ContextManager } from '../context-manager.js';
import { contextManagerSchema } from '../create-context-manager.js';
import { adapterOptionsSchema } from '../loop-option-schemas.js';
import type { ContextRetryOptions } from '../retry/call-with-context-retry.js';

/** Options of the framework adapters: the assembly, the ladder and the retry (each model call brings its own abort signal). */
export type ContextAdapterOptions = Omit<ContextRetryOptions, 'signal'>;

/**
 * Checks what a framework adapter was given, when it is made: a ContextManager, and options
 * without unknown keys (each named with the spelling expected).
 *
 * @throws BatonError('CONFIG_INVALID') naming the argument and the problem.
 */
export function checkAdapterArgs(who: string, manager: ContextManager, options: ContextAdapterOptions): ContextAdapterOptions {
  return parseInput(argsSchema, { manager, options }, { what: who }).options ?? {};
}

/** The arguments by name, so a problem reads `batonContextMiddleware: options: unknown key …`. */
const argsSchema = z.object({ manager: contextManagerSchema, options: adapterOptionsSchema.optional() });
