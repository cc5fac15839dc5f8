/**
 * Every code a BatonError can carry, and every code Baton emits anywhere (CLI `--json` errors, MCP
 * results, HTTP error bodies). User mistakes map to exit 2, the rest to exit 1.
 */
export const BATON_ERROR_CODES = [
  'CONFIG_INVALID',
  'INPUT_INVALID',
  'NOT_FOUND',
  'LEDGER_CONFLICT',
  'LEDGER_UNAVAILABLE',
  'LEDGER_CORRUPT',
  /** The ledger's storage refused a write: Redis at maxmemory, SQLite's disk full. */
  'LEDGER_FULL',
  'LEDGER_TOO_NEW',
  'IMPORT_INVALID',
  'BUDGET_TOO_SMALL',
  'PROVIDER_FAILED',
  'ALL_PROVIDERS_OPEN',
  'WORKSPACE_NOT_SET',
  'PATH_OUTSIDE_WORKSPACE',
  /** A request without the right credentials (the MCP HTTP endpoint's bearer token). */
  'UNAUTHORIZED',
  /** An optional peer dependency a feature needs is not installed; the message names it. */
  'DEPENDENCY_MISSING',
  'INTERNAL',
] as const;

export type BatonErrorCode = (typeof BATON_ERROR_CODES)[number];

const MARKER = Symbol.for('baton.error');

const USER_CODES: ReadonlySet<BatonErrorCode> = new Set([
  'CONFIG_INVALID',
  'INPUT_INVALID',
  'NOT_FOUND',
  'IMPORT_INVALID',
  'LEDGER_CORRUPT',
  'LEDGER_TOO_NEW',
  'WORKSPACE_NOT_SET',
  'PATH_OUTSIDE_WORKSPACE',
  'UNAUTHORIZED',
]);

/**
 * The one error type Baton throws on purpose. `code` says what went wrong; `details` carries
 * the data a caller needs to act (file, field, line, value).
 */
export class BatonError extends Error {
  readonly code: BatonErrorCode;
  readonly details: Record<string, unknown>;
  readonly [MARKER] = true;

  constructor(code: BatonErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
  }

  /** True when the error is the user's to fix (bad input, bad config, unknown id). */
  get isUserError(): boolean {
    return USER_CODES.has(this.code);
  }
}

/** Recognises a BatonError across package copies; optionally checks the code. */
export function isBatonError(error: unknown, code?: BatonErrorCode): error is BatonError {
  if (typeof error !== 'object' || error === null || !(MARKER in error)) return false;
  return code === undefined || (error as BatonError).code === code;
}

/** Message of any thrown value, for logs and user-facing text. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
