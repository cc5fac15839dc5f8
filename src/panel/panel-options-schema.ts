import * as z from 'zod';
import { abortSignalOption, envOption, functionOption, objectWithMethods, parseInput } from '../util/index.js';

/**
 * runPanel's and the panel server's options from code, checked before the first agent runs or
 * the server listens: strict, so `{ onAgentFinish }` or `{ hostname }` is an error naming the
 * spelling expected. Built once at module load.
 */
const runOptionsShape = {
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
};

export const runOptionsSchema = z.strictObject(runOptionsShape);

const configSchema = z.looseObject(
  { agents: z.array(z.looseObject({ name: z.string() })).min(1) },
  { error: 'expected a PanelConfig (from loadPanelConfig or resolvePanelConfig)' },
);

const serverContextShape = {
  config: configSchema,
  runOptions: z.strictObject({
    ledger: runOptionsShape.ledger,
    summaryCache: runOptionsShape.summaryCache,
    summarizerFor: runOptionsShape.summarizerFor,
    createModel: runOptionsShape.createModel,
    providers: runOptionsShape.providers,
    cwd: runOptionsShape.cwd,
    counter: runOptionsShape.counter,
    now: runOptionsShape.now,
  }),
  maxBodyBytes: z.number().int().min(1).optional(),
};

export const serverContextSchema = z.strictObject(serverContextShape);
const runPanelArgsSchema = z.strictObject({ config: configSchema, options: runOptionsSchema });
export const serverOptionsSchema = z.strictObject({
  ...serverContextShape,
  host: z.string().min(1).optional(),
  port: z.number().int().min(0).max(65_535).optional(),
});

/** @throws BatonError CONFIG_INVALID naming each problem. */
export function checkRunPanelArgs(config: unknown, options: unknown): void {
  parseInput(runPanelArgsSchema, { config, options }, { what: 'runPanel' });
}

/** @throws BatonError CONFIG_INVALID naming each problem. */
export function checkPanelServerContext(context: unknown): void {
  parseInput(serverContextSchema, context, { what: 'createPanelServer options' });
}

/** @throws BatonError CONFIG_INVALID naming each problem. */
export function checkPanelServerOptions(options: unknown): void {
  parseInput(serverOptionsSchema, options, { what: 'startPanelServer options' });
}

export const loadOptionsSchema = z.strictObject({
  cwd: z.string().min(1).optional(),
  env: envOption.optional(),
});

const resolveOptionsSchema = z.strictObject({
  file: z.string().min(1, 'expected the panel file path prompts resolve against'),
  env: envOption.optional(),
});

/** @throws BatonError CONFIG_INVALID naming each problem. */
export function checkLoadPanelOptions(options: unknown): void {
  parseInput(loadOptionsSchema, options, { what: 'loadPanelConfig options' });
}

/** @throws BatonError CONFIG_INVALID naming each problem. */
export function checkResolvePanelOptions(options: unknown): void {
  parseInput(resolveOptionsSchema, options, { what: 'resolvePanelConfig options' });
}
