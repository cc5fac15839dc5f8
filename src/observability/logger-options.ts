import { BatonError } from '../errors/index.js';

/** createLogger's options. */
export interface LoggerOptions {
  /** A pino level. @default BATON_LOG_LEVEL, else 'warn' */
  level?: string;
  /** @default 'baton' */
  name?: string;
  /** The file descriptor logs go to. @default 2 (stderr) */
  destination?: number;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const KEYS = ['level', 'name', 'destination'];

/**
 * createLogger's options from code, checked without zod (this module sits on every command's
 * start): an unknown key, a level pino does not have or a destination that is not a descriptor is
 * named. @throws BatonError CONFIG_INVALID
 */
export function checkLoggerOptions(options: unknown): LoggerOptions {
  const problem = loggerOptionsProblem(options);
  if (problem === undefined) return options as LoggerOptions;
  throw new BatonError('CONFIG_INVALID', `createLogger options: ${problem.text}`, { details: { field: problem.field } });
}

interface Problem {
  /** The option at fault ('' for the options object itself). */
  field: string;
  /** What is wrong, as the message says it. */
  text: string;
}

function loggerOptionsProblem(options: unknown): Problem | undefined {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    return { field: '', text: 'expected an object ({ level, name, destination })' };
  }
  const record = options as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !KEYS.includes(key));
  if (unknown !== undefined) {
    const near = KEYS.find((key) => key === unknown.toLowerCase().replace(/[-_]/g, '') || unknown.toLowerCase().startsWith(key));
    return {
      field: unknown,
      text: `unknown key "${unknown}" (${near ? `did you mean "${near}"?` : `expected one of ${KEYS.join(', ')}`})`,
    };
  }
  const { level, name, destination } = record;
  if (level !== undefined && (typeof level !== 'string' || !LEVELS.includes(level))) {
    return { field: 'level', text: `level: expected one of ${LEVELS.join(', ')}; got ${JSON.stringify(level)}` };
  }
  if (name !== undefined && typeof name !== 'string')
    return { field: 'name', text: `name: expected a string; got ${JSON.stringify(name)}` };
  if (destination !== undefined && !(Number.isInteger(destination) && (destination as number) >= 0)) {
    return {
      field: 'destination',
      text: `destination: expected a file descriptor (1 for stdout, 2 for stderr); got ${JSON.stringify(destination)}`,
    };
  }
  return undefined;
}
