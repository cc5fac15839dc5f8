import { BatonError } from '../errors/index.js';
import type { PreContextConfig, PreContextType } from './types.js';

const TYPES: ReadonlySet<string> = new Set<PreContextType>(['circuit_breaker', 'retry', 'helper']);

/**
 * Applies seed 000's environment variables on top of the file's pre-context settings. The
 * variables keep the seed's names so existing deployments keep working.
 * @throws BatonError CONFIG_INVALID naming the variable and its value.
 */
export function applyPreContextEnv(base: PreContextConfig, env: Readonly<Record<string, string | undefined>>): PreContextConfig {
  const result = { ...base, types: [...base.types] };
  const enabled = env.ENABLE_PRE_CONTEXT_INJECTION;
  if (enabled !== undefined && enabled !== '') result.enabled = parseBool('ENABLE_PRE_CONTEXT_INJECTION', enabled);
  const maxLines = env.PRE_CONTEXT_MAX_LINES;
  if (maxLines !== undefined && maxLines !== '') result.maxLines = parsePositive('PRE_CONTEXT_MAX_LINES', maxLines);
  const maxFiles = env.PRE_CONTEXT_MAX_FILES;
  if (maxFiles !== undefined && maxFiles !== '') result.maxFiles = parsePositive('PRE_CONTEXT_MAX_FILES', maxFiles);
  const helper = env.HELPER_CONTEXT_MAX_ATTEMPTS;
  if (helper !== undefined && helper !== '') {
    result.helperMaxAttempts = parsePositive('HELPER_CONTEXT_MAX_ATTEMPTS', helper);
  }
  const types = env.PRE_CONTEXT_TYPES;
  if (types !== undefined && types.trim() !== '') result.types = parseTypes(types);
  return result;
}

function parseBool(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw invalid(name, value, 'expected true or false');
}

function parsePositive(name: string, value: string): number {
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n <= 0) throw invalid(name, value, 'expected a positive integer');
  return n;
}

function parseTypes(value: string): PreContextType[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const item of items) {
    if (!TYPES.has(item)) throw invalid('PRE_CONTEXT_TYPES', value, `unknown type "${item}" (use ${[...TYPES].join(', ')})`);
  }
  return [...new Set(items)] as PreContextType[];
}

function invalid(name: string, value: string, why: string): BatonError {
  return new BatonError('CONFIG_INVALID', `Environment variable ${name}=${JSON.stringify(value)}: ${why}`, {
    details: { variable: name, value },
  });
}
