import path from 'node:path';
import { BatonError } from '../errors/index.js';
import type { Ledger } from './ledger.js';

/** @default '.baton/agent.db' (relative to cwd) */
export const DEFAULT_SQLITE_PATH = path.join('.baton', 'agent.db');
/** @default 2000: how long to wait for Redis before failing with LEDGER_UNAVAILABLE. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
/** @default 'default' */
export const DEFAULT_REDIS_NAMESPACE = 'default';
import { MAX_TIMEOUT_MS } from './max-timeout.js';

export interface OpenLedgerOptions {
  /**
   * `memory`, `sqlite:PATH` (or a bare path ending in .db), or `redis://[:PASSWORD@]HOST:PORT/DB`
   * (also `rediss://`). @default process.env.BATON_LEDGER, else BATON_REDIS_URL, else `sqlite:.baton/agent.db`
   */
  spec?: string;
  /** Base for relative SQLite paths. @default process.cwd() */
  cwd?: string;
  /**
   * Redis connection and command timeout: a positive number of milliseconds; above MAX_TIMEOUT_MS
   * (Infinity included) it waits MAX_TIMEOUT_MS. @default DEFAULT_CONNECT_TIMEOUT_MS or BATON_REDIS_TIMEOUT_MS
   */
  connectTimeoutMs?: number;
  /** Redis key namespace: keys live under `baton:<namespace>:`. @default BATON_NAMESPACE or 'default' */
  namespace?: string;
  /** SQLite: create the file (and its folder) when missing. @default true */
  create?: boolean;
  /**
   * SQLite: the caller only reads, so a file or folder it may not write is opened read-only
   * instead of failing (baton status on a read-only ledger). @default false
   */
  readOnlyFallback?: boolean;
  /**
   * SQLite: how long a write waits for another process's lock before failing with
   * LEDGER_UNAVAILABLE (hooks inside an agent CLI wait less than a run does): 0 to MAX_TIMEOUT_MS
   * milliseconds. @default 5000
   */
  busyTimeoutMs?: number;
  /** Clock, for tests. @default Date.now */
  now?: () => number;
}

export type LedgerSpec = { backend: 'memory' } | { backend: 'sqlite'; path: string } | { backend: 'redis'; url: string };

/** Parses a ledger spec; throws INPUT_INVALID naming the value when it is none of the forms. */
export function parseLedgerSpec(spec: string, cwd: string = process.cwd()): LedgerSpec {
  const value = spec.trim();
  if (value === 'memory' || value === 'memory:') return { backend: 'memory' };
  if (value.startsWith('redis://') || value.startsWith('rediss://')) return { backend: 'redis', url: value };
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) throw new BatonError('INPUT_INVALID', `Ledger spec "${spec}" names no file: use sqlite:PATH`);
    return { backend: 'sqlite', path: path.resolve(cwd, file) };
  }
  if (/\.(db|sqlite3?)$/.test(value)) return { backend: 'sqlite', path: path.resolve(cwd, value) };
  throw new BatonError(
    'INPUT_INVALID',
    `Unknown ledger "${spec}": use memory, sqlite:PATH or redis://HOST:PORT/DB (--ledger or BATON_LEDGER)`,
    { details: { field: 'ledger', value: spec } },
  );
}

/**
 * Opens the ledger named by options.spec, BATON_LEDGER, or the default SQLite file.
 * @throws BatonError CONFIG_INVALID for an unknown option (naming the spelling expected) or a value
 *   of the wrong type; INPUT_INVALID for a spec of none of the forms.
 */
export async function openLedger(options: OpenLedgerOptions = {}): Promise<Ledger> {
  if (!looksValid(options)) (await import('./open-ledger-schema.js')).checkOpenLedgerOptions(options);
  const cwd = options.cwd ?? process.cwd();
  const spec = parseLedgerSpec(
    options.spec ?? process.env.BATON_LEDGER ?? process.env.BATON_REDIS_URL ?? `sqlite:${DEFAULT_SQLITE_PATH}`,
    cwd,
  );
  switch (spec.backend) {
    case 'memory': {
      const { MemoryLedger } = await import('./memory-ledger.js');
      return new MemoryLedger(options.now);
    }
    case 'sqlite': {
      const { openSqliteLedger } = await import('./sqlite/index.js');
      return openSqliteLedger(spec.path, options);
    }
    case 'redis': {
      const { openRedisLedger } = await import('./redis/index.js');
      const envTimeout = Number(process.env.BATON_REDIS_TIMEOUT_MS);
      return openRedisLedger(spec.url, {
        connectTimeoutMs: options.connectTimeoutMs ?? (envTimeout > 0 ? envTimeout : DEFAULT_CONNECT_TIMEOUT_MS),
        namespace: options.namespace ?? process.env.BATON_NAMESPACE ?? DEFAULT_REDIS_NAMESPACE,
        now: options.now,
      });
    }
  }
}

/** Keys and the type of each option (open-ledger-schema.ts has the schema that explains a failure). */
const OPTION_TYPES: Readonly<Record<keyof OpenLedgerOptions, string>> = {
  spec: 'string',
  cwd: 'string',
  connectTimeoutMs: 'number',
  namespace: 'string',
  create: 'boolean',
  readOnlyFallback: 'boolean',
  busyTimeoutMs: 'number',
  now: 'function',
};

/**
 * A quick check without zod (start-up cost): types, and the timeouts' ranges (NaN, a negative or
 * an infinite busy timeout reach the timers otherwise). False sends the options to the schema for
 * the message.
 */
function looksValid(options: unknown): boolean {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return false;
  for (const [key, value] of Object.entries(options)) {
    if (!Object.hasOwn(OPTION_TYPES, key)) return false;
    if (value !== undefined && typeof value !== OPTION_TYPES[key as keyof OpenLedgerOptions]) return false;
  }
  const { connectTimeoutMs, busyTimeoutMs } = options as OpenLedgerOptions;
  if (connectTimeoutMs !== undefined && !(connectTimeoutMs > 0)) return false;
  return busyTimeoutMs === undefined || (busyTimeoutMs >= 0 && busyTimeoutMs <= MAX_TIMEOUT_MS);
}
