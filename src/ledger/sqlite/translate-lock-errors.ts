import { BatonError } from '../../errors/index.js';
import type { Ledger } from '../ledger.js';

/** True for SQLITE_BUSY and its extended codes: another connection held the lock too long. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED');
}

/**
 * Wraps every method of a SQLite ledger so that a lock still held by another process after the
 * busy timeout surfaces as LEDGER_UNAVAILABLE naming the file, instead of a bare SqliteError.
 * A Proxy keeps this in one place rather than a try/catch in each of the ~25 methods.
 */
export function translateLockErrors(ledger: Ledger, busyTimeoutMs: number): Ledger {
  const translate = (error: unknown): unknown =>
    isBusy(error)
      ? new BatonError(
          'LEDGER_UNAVAILABLE',
          `Ledger ${ledger.location} stayed locked by another process for over ${busyTimeoutMs} ms; try again, or check for a stuck baton process`,
          { cause: error, details: { file: ledger.location, busyTimeoutMs } },
        )
      : error;
  return new Proxy(ledger, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      // Synchronous by contract (two pragma reads, no lock taken): not wrapped into a promise.
      if (property === 'changeCounters') return (value as () => unknown).bind(target);
      if (property === 'exportLines') {
        return async function* (...args: unknown[]) {
          try {
            yield* (value as (...a: unknown[]) => AsyncIterable<unknown>).apply(target, args);
          } catch (error) {
            throw translate(error);
          }
        };
      }
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (error) {
          throw translate(error);
        }
      };
    },
  });
}
