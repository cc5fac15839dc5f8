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
 * named, `field` being the option at fault ('' for the options object itself).
 * @throws BatonError CONFIG_INVALID
 */
export function checkLoggerOptions(options: unknown): void {
  const fail = (field: string, text: string): never => {
    throw new BatonError('CONFIG_INVALID', `createLogger options: ${text}`, { details: { field } });
  };
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail('', 'expected an object ({ level, name, destination })');
  }
  const record = options as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !KEYS.includes(key));
  if (unknown !== undefined) {
    const near = KEYS.find((key) => key === unknown.toLowerCase().replace(/[-_]/g, '') || unknown.toLowerCase().startsWith(key));
    fail(unknown, `unknown key "${unknown}" (${near ? `did you mean "${near}"?` : `expected one of ${KEYS.join(', ')}`})`);
  }
  const { level, name, destination } = record;
  if (level !== undefined && (typeof level !== 'string' || !LEVELS.includes(level))) {
    fail('level', `level: expected one of ${LEVELS.join(', ')}; got ${JSON.stringify(level)}`);
  }
  if (name !== undefined && typeof name !== 'string') fail('name', `name: expected a string; got ${JSON.stringify(name)}`);
  if (destination !== undefined && !(Number.isInteger(destination) && (destination as number) >= 0)) {
    fail('destination', `destination: expected a file descriptor (1 for stdout, 2 for stderr); got ${JSON.stringify(destination)}`);
  }
}
