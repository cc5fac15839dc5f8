import { BatonError } from '../errors/index.js';
import type { Ledger } from './ledger.js';
import { RECORD_COLLECTIONS, type RecordCollection } from './types.js';

export function notFound(kind: string, id: string): BatonError {
  return new BatonError('NOT_FOUND', `No ${kind} with id "${id}"`, { details: { kind, id } });
}

export function conflict(kind: string, id: string): BatonError {
  return new BatonError('LEDGER_CONFLICT', `A ${kind} with id "${id}" already exists`, { details: { kind, id } });
}

/** Checks a record collection name before a backend uses it (in a key, a row or a map). */
export function checkCollection(collection: RecordCollection): void {
  if (!RECORD_COLLECTIONS.includes(collection)) {
    throw new BatonError('INPUT_INVALID', `Unknown record collection "${collection}": use one of ${RECORD_COLLECTIONS.join(', ')}`, {
      details: { field: 'collection', value: collection },
    });
  }
}

/**
 * Wraps every method of a ledger so that a failure of its store (a lock held too long, a full
 * disk, a lost connection) surfaces as the BatonError `translate` makes of it, naming the store and
 * what to do, instead of the driver's bare error. One Proxy rather than a try/catch in each of the
 * ~25 methods.
 */
export function translateLedgerErrors<L extends Ledger>(ledger: L, translate: (error: unknown, operation: string) => unknown): L {
  return new Proxy(ledger, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      // Synchronous by contract (two pragma reads, no lock taken): not wrapped into a promise.
      if (property === 'changeCounters') return (value as () => unknown).bind(target);
      const operation = String(property);
      if (property === 'exportLines') {
        return async function* (...args: unknown[]) {
          try {
            yield* (value as (...a: unknown[]) => AsyncIterable<unknown>).apply(target, args);
          } catch (error) {
            throw translate(error, operation);
          }
        };
      }
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (error) {
          throw translate(error, operation);
        }
      };
    },
  });
}
