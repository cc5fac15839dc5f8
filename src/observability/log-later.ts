import { configuredLogLevel } from './log-level.js';

/** pino's level numbers. */
const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
export type LogLevel = keyof typeof LEVELS;

/**
 * Writes one record through the shared logger, loading pino only when the record passes
 * BATON_LOG_LEVEL (the logger's own threshold). The code a fresh `baton mcp` runs before its first
 * answer logs below the default level, and loading pino there cost ~15 ms of that start (bench
 * cold). The record is written a moment later, once the logger has loaded.
 */
export function logLater(level: LogLevel, fields: Record<string, unknown>, message: string): void {
  const configured = configuredLogLevel();
  if (configured === 'silent') return;
  // An unknown level name is left to pino, which rejects it with its own message.
  if (configured in LEVELS && LEVELS[level] < LEVELS[configured as LogLevel]) return;
  void import('./logger.js').then(({ getLogger }) => getLogger()[level](fields, message));
}
