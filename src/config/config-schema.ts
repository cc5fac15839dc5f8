import * as z from 'zod';
import { providerConfigSchema } from '../providers/index.js';
import { envOption } from '../util/index.js';

const positiveInt = z.number().int().positive();

export const preContextFileSchema = z.strictObject({
  enabled: z.boolean().optional(),
  maxLines: positiveInt.optional(),
  types: z.array(z.enum(['circuit_breaker', 'retry', 'helper'])).optional(),
  maxFiles: positiveInt.optional(),
  helperMaxAttempts: positiveInt.optional(),
});

export const breakerFileSchema = z.strictObject({
  coolDownMs: positiveInt.optional(),
  quotaCoolDownMs: positiveInt.optional(),
  authCoolDownMs: positiveInt.optional(),
  failureThreshold: positiveInt.optional(),
  probeLeaseMs: positiveInt.optional(),
});

export const timeoutsFileSchema = z.strictObject({ agentMs: positiveInt.optional(), checkMs: positiveInt.optional() });

export const commitPolicyFileSchema = z.strictObject({
  maxFileBytes: positiveInt.optional().describe('Files a task commits larger than this are a violation'),
  onViolation: z.enum(['refuse', 'flag']).optional().describe('refuse: the attempt fails; flag: committed and reported'),
});

/** baton.config.json after "//" comment keys are removed. Every field optional: defaults fill in. */
export const configFileSchema = z.strictObject({
  ledger: z.string().min(1).optional().describe('sqlite:PATH, redis://HOST:PORT/DB or memory'),
  providers: z.record(z.string().min(1), providerConfigSchema).optional(),
  priority: z.array(z.string().min(1)).min(1).optional(),
  preContext: preContextFileSchema.optional(),
  recentHistoryWindow: positiveInt.optional(),
  breaker: breakerFileSchema.optional(),
  timeouts: timeoutsFileSchema.optional(),
  commitPolicy: commitPolicyFileSchema.optional(),
  helper: z.string().min(1).optional(),
});

export type ConfigFile = z.infer<typeof configFileSchema>;

/** loadConfig's own options, checked: `{ configFile }` names `file`. */
export const loadConfigOptionsSchema = z.strictObject({
  cwd: z.string().min(1, 'expected the workspace folder'),
  file: z.string().min(1).optional(),
  env: envOption.optional(),
});
