import { BatonError, errorMessage } from '../errors/index.js';
import type { Ledger } from '../ledger/index.js';

/**
 * A stand-in for a ledger that could not be opened: every call rejects with LEDGER_UNAVAILABLE
 * naming the cause. refresh_context turns that into a partial result with a warning (§6.5); the
 * other tools report it as an isError result.
 */
export function unavailableLedger(root: string, cause: unknown): Ledger {
  const error = () =>
    new BatonError('LEDGER_UNAVAILABLE', `The ledger of ${root} cannot be opened: ${errorMessage(cause)}`, { cause });
  const target = { backend: 'sqlite', location: 'unavailable', close: async () => undefined } as Partial<Ledger>;
  return new Proxy(target, {
    get(object, prop) {
      if (prop in object) return object[prop as keyof Ledger];
      if (prop === 'then') return undefined; // not a thenable: it is returned from async functions
      return () => Promise.reject(error());
    },
  }) as Ledger;
}
