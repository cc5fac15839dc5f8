import { createRequire } from 'node:module';
import type { Logger } from 'pino';
import { maskSecretsSync } from '../redact/index.js';
import { configuredLogLevel } from './log-level.js';
import { checkLoggerOptions, type LoggerOptions } from './logger-options.js';

type Pino = typeof import('pino');
let pinoModule: Pino | undefined;

/**
 * pino, loaded on the first logger made: this module is light to import (the observability index
 * is imported by `baton mcp`'s start, which logs nothing at the default level; log-later.ts).
 */
function loadPino(): Pino {
  pinoModule ??= createRequire(import.meta.url)('pino') as Pino;
  return pinoModule;
}

export type { Logger } from 'pino';

/**
 * Baton's structured logger. Logs go to stderr (stdout belongs to command output and to MCP
 * stdio), every line with its secrets masked. Level from BATON_LOG_LEVEL. @default 'warn' so the
 * CLI stays quiet unless asked.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  checkLoggerOptions(options);
  const { pino, destination } = loadPino();
  return pino(
    {
      name: options.name ?? 'baton',
      level: options.level ?? configuredLogLevel(),
      // Every line, whoever logs what, passes Baton's one redactor on its way out.
      hooks: { streamWrite: (line) => maskSecretsSync(line).text },
    },
    destination({ fd: options.destination ?? 2, sync: true }),
  );
}

let shared: Logger | undefined;

/** The process-wide logger (created on first use). */
export function getLogger(): Logger {
  shared ??= createLogger();
  return shared;
}

let silent: Logger | undefined;
const silentPino = (): Logger => (silent ??= loadPino().pino({ level: 'silent' }));

/**
 * A logger that drops everything, for tests and pure builders. pino makes it on first use; until
 * then this stands in for it, every property read and method call forwarded to it.
 */
export const silentLogger: Logger = new Proxy({} as Logger, {
  get(_target, key) {
    const value: unknown = Reflect.get(silentPino(), key);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(silentPino()) : value;
  },
  set: (_target, key, value) => Reflect.set(silentPino(), key, value),
  has: (_target, key) => Reflect.has(silentPino(), key),
});
