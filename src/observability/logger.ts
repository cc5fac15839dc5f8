import pino, { type Logger } from 'pino';
import { configuredLogLevel } from './log-level.js';

export type { Logger } from 'pino';

/**
 * Baton's structured logger. Logs go to stderr (stdout belongs to command output and to MCP
 * stdio). Level from BATON_LOG_LEVEL. @default 'warn' so the CLI stays quiet unless asked.
 */
export function createLogger(options: { level?: string; name?: string; destination?: number } = {}): Logger {
  return pino(
    { name: options.name ?? 'baton', level: options.level ?? configuredLogLevel() },
    pino.destination({ fd: options.destination ?? 2, sync: true }),
  );
}

let shared: Logger | undefined;

/** The process-wide logger (created on first use). */
export function getLogger(): Logger {
  shared ??= createLogger();
  return shared;
}

/** A logger that drops everything, for tests and pure builders. */
export const silentLogger: Logger = pino({ level: 'silent' });
