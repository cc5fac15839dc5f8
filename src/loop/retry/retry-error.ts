import { BatonError } from '../../errors/index.js';

/** Why retrying stopped. */
export type RetryStopReason = 'maxRetriesExceeded' | 'errorNotRetryable' | 'abort';

/** Thrown when retries run out (or stop early): every attempt's error, and a message for the user. */
export class RetryError extends BatonError {
  readonly reason: RetryStopReason;
  readonly errors: unknown[];
  readonly lastError: unknown;

  constructor(reason: RetryStopReason, errors: unknown[], message: string) {
    const lastError = errors.at(-1);
    super('PROVIDER_FAILED', message, { cause: lastError, details: { reason, attempts: errors.length } });
    this.reason = reason;
    this.errors = errors;
    this.lastError = lastError;
  }
}
