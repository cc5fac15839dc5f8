import { BatonError, errorMessage } from '../errors/index.js';
import type { Ledger } from '../ledger/index.js';

/**
 * A stand-in for a ledger that could not be opened: every call rejects with LEDGER_UNAVAILABLE
 * naming the cause, so refresh_context can still answer from git and files (§6.5) and the other
 * tools report the failure as an error result. It names what it stands in for, honestly:
 * `backend` is the backend that was tried, and `location` says that it is unavailable and why.
 */
export function unavailableLedger(root: string, tried: Ledger['backend'], cause: unknown): Ledger {
  const reason = errorMessage(cause);
  const error = () => new BatonError('LEDGER_UNAVAILABLE', `The ledger of ${root} cannot be opened: ${reason}`, { cause });
  const target: Partial<Ledger> = {
    backend: tried,
    location: `unavailable (${reason})`,
    close: async () => undefined,
  };
  return new Proxy(target, {
    get(object, prop) {
      if (prop in object) return object[prop as keyof typeof object];
      if (prop === 'then') return undefined; // not a thenable: it is returned from async functions
      return () => Promise.reject(error());
    },
  }) as Ledger;
}

/** The backend a workspace's ledger spec names (what was tried), from BATON_LEDGER or the default. */
export function backendTried(env: NodeJS.ProcessEnv = process.env): Ledger['backend'] {
  const spec = (env.BATON_LEDGER ?? env.BATON_REDIS_URL ?? '').trim();
  if (spec.startsWith('redis')) return 'redis';
  if (spec === 'memory' || spec === 'memory:') return 'memory';
  return 'sqlite';
}
