import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BatonError, errorMessage } from '../errors/index.js';
import { definedFields, describeJsonError, parseInput, refuseProtoKey } from '../util/index.js';
import { AGENT_CLI_SPECS, type AgentCliType, type ProviderConfig } from '../providers/index.js';
import { type ConfigFile, configFileSchema, loadConfigOptionsSchema } from './config-schema.js';
import * as defaults from './defaults.js';
import { applyPreContextEnv } from './pre-context-env.js';
import type { BatonConfig } from './types.js';

export interface LoadConfigOptions {
  /** Workspace folder; the default file is looked up under it. */
  cwd: string;
  /** Explicit config file (`--config`), relative to cwd. It must exist. @default '.baton/baton.config.json' (optional) */
  file?: string;
  /** Environment for seed 000's pre-context variables. @default {} */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Reads and validates baton.config.json, applies defaults and seed 000's environment
 * overrides, and returns a plain resolved object. A missing default file means "all defaults";
 * a missing explicit file is an error. Keys starting with "//" are comments and are ignored.
 * Relative command paths resolve against the config file's folder.
 * @throws BatonError CONFIG_INVALID naming the file and each bad field path (an unknown key with
 *   the spelling expected), or an unknown key of `options`.
 * @example
 * const config = await loadConfig({ cwd: process.cwd(), env: process.env });
 */
export async function loadConfig(options: LoadConfigOptions): Promise<BatonConfig> {
  parseInput(loadConfigOptionsSchema, options, { what: 'loadConfig options' });
  const explicit = options.file !== undefined;
  const file = path.resolve(options.cwd, options.file ?? defaults.DEFAULT_CONFIG_PATH);
  const raw = await readConfigText(file, explicit);
  const parsed = raw === undefined ? {} : parseConfigText(raw, file);
  return resolveConfig(parsed, {
    file: raw === undefined ? undefined : file,
    baseDir: raw === undefined ? options.cwd : path.dirname(file),
    env: options.env ?? {},
  });
}

async function readConfigText(file: string, explicit: boolean): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !explicit) return undefined;
    throw new BatonError('CONFIG_INVALID', `Cannot read config file ${file}: ${errorMessage(error)}`, {
      cause: error,
      details: { file },
    });
  }
}

function parseConfigText(text: string, file: string): ConfigFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BatonError('CONFIG_INVALID', `Config file ${file} is not valid JSON: ${describeJsonError(text, error)}`, {
      details: { file },
    });
  }
  const stripped = stripComments(json);
  if (typeof stripped === 'object' && stripped !== null) {
    refuseProtoKey((stripped as { providers?: unknown }).providers, 'providers', `Config file ${file}`, { file });
  }
  return parseInput(configFileSchema, stripped, { what: `Config file ${file}`, details: { file } });
}

/** Drops "//" keys at every depth, so comments may sit next to any setting. */
function stripComments(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripComments);
  if (typeof value !== 'object' || value === null) return value;
  // Object.fromEntries defines own keys: a "__proto__" key stays a key (the schema refuses it) and
  // never becomes the copy's prototype, whose fields would read as config.
  return Object.fromEntries(Object.entries(value).flatMap(([key, v]) => (key.startsWith('//') ? [] : [[key, stripComments(v)]])));
}

interface ResolveContext {
  file: string | undefined;
  baseDir: string;
  env: Readonly<Record<string, string | undefined>>;
}

function resolveConfig(parsed: ConfigFile, ctx: ResolveContext): BatonConfig {
  const where = ctx.file ?? 'the default configuration';
  const providers: Record<string, ProviderConfig> = {};
  for (const [name, declared] of Object.entries(parsed.providers ?? {})) {
    if (declared.type === 'http' && (declared.api ?? 'openai-compatible') === 'openai-compatible' && declared.baseURL === undefined) {
      const field = `providers.${name}.baseURL`;
      throw new BatonError('CONFIG_INVALID', `Config ${where}: ${field} is required for an openai-compatible http provider`, {
        details: { file: ctx.file, field },
      });
    }
    providers[name] = resolveProvider(declared, ctx.baseDir);
  }
  const priority = parsed.priority ?? [...defaults.DEFAULT_PRIORITY];
  const needed = parsed.helper === undefined ? priority : [...priority, parsed.helper];
  for (const [index, name] of needed.entries()) {
    if (Object.hasOwn(providers, name)) continue;
    if (Object.hasOwn(AGENT_CLI_SPECS, name)) {
      providers[name] = { type: name as AgentCliType };
      continue;
    }
    const field = index < priority.length ? `priority.${index}` : 'helper';
    throw new BatonError(
      'CONFIG_INVALID',
      `Config ${where}: ${field} names provider "${name}", which is neither declared under "providers" nor built in (${Object.keys(AGENT_CLI_SPECS).join(', ')})`,
      { details: { file: ctx.file, field, value: name } },
    );
  }
  return {
    providers,
    priority,
    preContext: applyPreContextEnv({ ...defaults.DEFAULT_PRE_CONTEXT, ...parsed.preContext }, ctx.env),
    recentHistoryWindow: parsed.recentHistoryWindow ?? defaults.DEFAULT_RECENT_HISTORY_WINDOW,
    breaker: {
      coolDownMs: parsed.breaker?.coolDownMs ?? defaults.DEFAULT_COOL_DOWN_MS,
      quotaCoolDownMs: parsed.breaker?.quotaCoolDownMs ?? defaults.DEFAULT_QUOTA_COOL_DOWN_MS,
      authCoolDownMs: parsed.breaker?.authCoolDownMs ?? defaults.DEFAULT_AUTH_COOL_DOWN_MS,
      failureThreshold: parsed.breaker?.failureThreshold ?? defaults.DEFAULT_FAILURE_THRESHOLD,
      probeLeaseMs: parsed.breaker?.probeLeaseMs ?? defaults.DEFAULT_PROBE_LEASE_MS,
    },
    timeouts: { agentMs: defaults.DEFAULT_AGENT_TIMEOUT_MS, checkMs: defaults.DEFAULT_CHECK_TIMEOUT_MS, ...parsed.timeouts },
    commitPolicy: { ...defaults.DEFAULT_COMMIT_POLICY, ...parsed.commitPolicy },
    ...definedFields({ file: ctx.file, ledger: parsed.ledger, helper: parsed.helper }),
  };
}

function resolveProvider(declared: ProviderConfig, baseDir: string): ProviderConfig {
  if (declared.type === 'command') {
    const [program, ...args] = declared.command;
    return { ...declared, command: [resolveProgram(program!, baseDir), ...args] };
  }
  if (declared.type !== 'http' && declared.binary !== undefined) {
    return { ...declared, binary: resolveProgram(declared.binary, baseDir) };
  }
  return declared;
}

/** A bare name ("node") is looked up on PATH; anything with a slash is a path from the config's folder. */
function resolveProgram(program: string, baseDir: string): string {
  if (path.isAbsolute(program) || !program.includes('/')) return program;
  return path.resolve(baseDir, program);
}
