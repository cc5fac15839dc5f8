import * as z from 'zod';
import { envOption, functionOption, parseInput, refuseProtoKey, type SchemaFor, stringMapOption } from '../util/index.js';
import type { AgentCliProviderConfig, CommandProviderConfig, HttpProviderConfig, ProcessProviderOptions, ProviderConfig } from './types.js';

/**
 * The zod schema of a provider declaration: baton.config.json's `providers` entries and the
 * config objects of createProvider / createCommandProvider / createHttpProvider /
 * createAgentCliProvider from code. Strict: `{ cmd: [...] }` names `command`.
 */

const positiveInt = z.number().int().positive();

const base = {
  model: z.string().min(1).optional().describe('Model to request'),
  env: envOption.optional().describe('Extra environment for the agent process'),
  timeoutMs: positiveInt.optional().describe('Per-provider wall-clock limit in ms'),
};

export const agentCliConfigSchema = z.strictObject({
  type: z.enum(['gemini', 'copilot', 'cursor', 'codex', 'claude']),
  binary: z.string().min(1).optional().describe('Executable to run'),
  args: z.array(z.string()).optional().describe('Extra arguments, where the CLI accepts options (before the prompt)'),
  permissions: z.enum(['edits', 'workspace', 'full']).optional().describe('What the agent may do without asking'),
  ...base,
});

export const commandConfigSchema = z.strictObject({
  type: z.literal('command'),
  command: z.array(z.string().min(1)).min(1).describe('argv: executable then arguments'),
  ...base,
});

const secretRef = z.union([z.string().min(1), z.strictObject({ env: z.string().min(1) })]);

export const httpConfigSchema = z.strictObject({
  type: z.literal('http'),
  api: z.enum(['openai-compatible', 'anthropic', 'google']).optional(),
  baseURL: z.url().optional(),
  ...base,
  model: z.string().min(1).describe('Model id (required: an HTTP API has no default)'),
  apiKey: secretRef.optional(),
  headers: stringMapOption('the HTTP headers: an object of strings').optional(),
  maxOutputTokens: positiveInt.optional(),
});

/** One provider declaration; `type` picks the shape. */
export const providerConfigSchema = z.discriminatedUnion('type', [agentCliConfigSchema, commandConfigSchema, httpConfigSchema]);

/** @throws BatonError CONFIG_INVALID naming each problem of a provider's config. */
export function checkProviderConfig(who: string, name: unknown, config: ProviderConfig, schema: z.ZodType = providerConfigSchema): void {
  if (typeof name !== 'string' || name.trim() === '') {
    parseInput(z.strictObject({ name: z.string().min(1, 'expected the provider name') }), { name }, { what: who });
  }
  parseInput(schema, config, { what: `${who}("${String(name)}") config` });
}

export const processOptionsSchema = z.strictObject({
  outputCapBytes: positiveInt.optional(),
  killGraceMs: z.number().int().nonnegative().optional(),
  now: functionOption<() => number>('a clock: () => epoch ms').optional(),
});

/**
 * createProviders' first argument: a whole BatonConfig (as loadConfig returns it) passes, so keys
 * other than these two are left alone; each declaration is checked by createProvider.
 */
const providersConfigSchema = z.looseObject({
  providers: z.record(z.string(), z.unknown(), { error: 'expected the providers, keyed by name' }),
  priority: z.array(z.string().min(1), { error: 'expected the provider names in priority order' }),
});

/** The process options of the provider factories. @throws BatonError CONFIG_INVALID naming the key. */
export function checkProcessOptions(who: string, options: unknown): void {
  parseInput(processOptionsSchema, options, { what: `${who} options` });
}

/** createProviders' config from code. @throws BatonError CONFIG_INVALID naming the field. */
export function checkProvidersConfig(config: unknown): void {
  if (typeof config === 'object' && config !== null)
    refuseProtoKey((config as { providers?: unknown }).providers, 'providers', 'createProviders config');
  parseInput(providersConfigSchema, config, { what: 'createProviders config' });
}

// Each schema tied to the interface it mirrors: a key or type added to one alone fails the build.
export const AGENT_CLI_CONFIG_MATCH: SchemaFor<AgentCliProviderConfig, typeof agentCliConfigSchema> = true;
export const COMMAND_CONFIG_MATCH: SchemaFor<CommandProviderConfig, typeof commandConfigSchema> = true;
export const HTTP_CONFIG_MATCH: SchemaFor<HttpProviderConfig, typeof httpConfigSchema> = true;
export const PROCESS_OPTIONS_MATCH: SchemaFor<ProcessProviderOptions, typeof processOptionsSchema> = true;
