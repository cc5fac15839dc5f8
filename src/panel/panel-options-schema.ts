import * as z from 'zod';
import { abortSignalOption, envOption, functionOption, objectWithMethods } from '../util/index.js';

/**
 * runPanel's and the panel server's options from code, checked by parseInput (CONFIG_INVALID naming
 * each problem) before the first agent runs or the server listens: strict, so `{ onAgentFinish }`
 * or `{ hostname }` is an error naming the spelling expected. Built once at module load.
 */
export const runOptionsSchema = z.strictObject({
  ledger: objectWithMethods(['appendDispatch', 'createRecord'], 'a Ledger (from openLedger or new MemoryLedger())'),
  signal: abortSignalOption.optional(),
  onToken: functionOption().optional(),
  onAgentStart: functionOption().optional(),
  onAgentEnd: functionOption().optional(),
  attribution: z.enum(['assistant', 'user']).optional(),
  summaryCache: objectWithMethods(['get', 'set'], 'a SummaryCache (MemorySummaryCache, DiskSummaryCache)').optional(),
  summarizerFor: functionOption().optional(),
  createModel: functionOption().optional(),
  providers: z.record(z.string(), objectWithMethods(['run'], 'a Provider (createProvider, createCommandProvider, ...)')).optional(),
  cwd: z.string().min(1).optional(),
  counter: objectWithMethods(['count'], 'a TokenCounter ({ count(text): number })').optional(),
  now: functionOption().optional(),
});

const configSchema = z.looseObject(
  { agents: z.array(z.looseObject({ name: z.string() })).min(1) },
  { error: 'expected a PanelConfig (from loadPanelConfig or resolvePanelConfig)' },
);

const serverContextShape = {
  config: configSchema,
  // The per-request options are left out: each request sets them.
  runOptions: runOptionsSchema.omit({ signal: true, onToken: true, onAgentStart: true, onAgentEnd: true, attribution: true }),
  maxBodyBytes: z.number().int().min(1).optional(),
};

export const serverContextSchema = z.strictObject(serverContextShape);
export const runPanelArgsSchema = z.strictObject({ config: configSchema, options: runOptionsSchema });
export const serverOptionsSchema = z.strictObject({
  ...serverContextShape,
  host: z.string().min(1).optional(),
  port: z.number().int().min(0).max(65_535).optional(),
});

export const loadOptionsSchema = z.strictObject({
  cwd: z.string().min(1).optional(),
  env: envOption.optional(),
});

export const resolveOptionsSchema = z.strictObject({
  file: z.string().min(1, 'expected the panel file path prompts resolve against'),
  env: envOption.optional(),
});
