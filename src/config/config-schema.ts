import { z } from 'zod';

const positiveInt = z.number().int().positive();
const stringMap = z.record(z.string(), z.string());

const base = {
  model: z.string().min(1).optional().describe('Model to request'),
  env: stringMap.optional().describe('Extra environment for the agent process'),
  timeoutMs: positiveInt.optional().describe('Per-provider wall-clock limit in ms'),
};

const agentCli = z.strictObject({
  type: z.enum(['gemini', 'copilot', 'cursor', 'codex', 'claude']),
  binary: z.string().min(1).optional().describe('Executable to run'),
  args: z.array(z.string()).optional().describe('Extra arguments, where the CLI accepts options (before the prompt)'),
  permissions: z.enum(['edits', 'workspace', 'full']).optional().describe('What the agent may do without asking'),
  ...base,
});

const command = z.strictObject({
  type: z.literal('command'),
  command: z.array(z.string().min(1)).min(1).describe('argv: executable then arguments'),
  ...base,
});

const secretRef = z.union([z.string().min(1), z.strictObject({ env: z.string().min(1) })]);

const http = z.strictObject({
  type: z.literal('http'),
  api: z.enum(['openai-compatible', 'anthropic', 'google']).optional(),
  baseURL: z.url().optional(),
  ...base,
  model: z.string().min(1).describe('Model id (required: an HTTP API has no default)'),
  apiKey: secretRef.optional(),
  headers: stringMap.optional(),
  maxOutputTokens: positiveInt.optional(),
});

/** One provider declaration; `type` picks the shape. */
export const providerConfigSchema = z.discriminatedUnion('type', [agentCli, command, http]);

/** baton.config.json after "//" comment keys are removed. Every field optional: defaults fill in. */
export const configFileSchema = z.strictObject({
  ledger: z.string().min(1).optional().describe('sqlite:PATH, redis://HOST:PORT/DB or memory'),
  providers: z.record(z.string().min(1), providerConfigSchema).optional(),
  priority: z.array(z.string().min(1)).min(1).optional(),
  preContext: z
    .strictObject({
      enabled: z.boolean().optional(),
      maxLines: positiveInt.optional(),
      types: z.array(z.enum(['circuit_breaker', 'retry', 'helper'])).optional(),
      maxFiles: positiveInt.optional(),
      helperMaxAttempts: positiveInt.optional(),
    })
    .optional(),
  recentHistoryWindow: positiveInt.optional(),
  breaker: z
    .strictObject({
      coolDownMs: positiveInt.optional(),
      quotaCoolDownMs: positiveInt.optional(),
      authCoolDownMs: positiveInt.optional(),
      failureThreshold: positiveInt.optional(),
      probeLeaseMs: positiveInt.optional(),
    })
    .optional(),
  timeouts: z.strictObject({ agentMs: positiveInt.optional(), checkMs: positiveInt.optional() }).optional(),
  commitPolicy: z
    .strictObject({
      maxFileBytes: positiveInt.optional().describe('Files a task commits larger than this are a violation'),
      onViolation: z.enum(['refuse', 'flag']).optional().describe('refuse: the attempt fails; flag: committed and reported'),
    })
    .optional(),
  helper: z.string().min(1).optional(),
});

export type ConfigFile = z.infer<typeof configFileSchema>;
