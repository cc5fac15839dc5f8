import type { Ledger } from '../ledger/index.js';

/**
 * A cheap "has the ledger changed?" value for the result cache, without reading any table. It
 * comes from the backend's change counters (SQLite: `PRAGMA data_version` for commits by other
 * connections, `total_changes()` for this connection's own writes, whichever object made them).
 * A backend without counters (Redis and memory today) has no version: the result cache then
 * leaves its calls alone rather than risk serving stale context.
 *
 * Every refresh writes to two collections it never reads (the session's freshness record and
 * the audit trail). Left counted, those writes would invalidate the cache on every call, so a
 * ledger handle wrapped by `trackLedgerWrites` measures them and leaves them out.
 */

/** Record collections refresh never reads: writing them (each refresh does) must not invalidate. */
const UNREAD_COLLECTIONS: ReadonlySet<string> = new Set(['sessions', 'audit']);

interface ChangeCounters {
  external: number;
  own: number;
}

const skipped = new WeakMap<Ledger, { changes: number }>();

/**
 * Wraps a ledger so that its writes to `sessions` and `audit` do not move its version. The
 * change is measured around the call's synchronous part (where better-sqlite3 runs the SQL); a
 * backend that writes later is simply counted, which costs a cache miss, never a stale hit.
 */
export function trackLedgerWrites(ledger: Ledger): Ledger {
  const counter = { changes: 0 };
  const bookkeeping =
    (method: 'createRecord' | 'updateRecord') =>
    (...args: unknown[]) => {
      const call = () => (ledger[method] as (...a: unknown[]) => unknown).apply(ledger, args);
      if (!UNREAD_COLLECTIONS.has(String(args[0]))) return call();
      const before = countersOf(ledger)?.own;
      const result = call();
      const after = countersOf(ledger)?.own;
      if (before !== undefined && after !== undefined) counter.changes += after - before;
      return result;
    };
  const wrappers = { createRecord: bookkeeping('createRecord'), updateRecord: bookkeeping('updateRecord') };
  const proxy = new Proxy(ledger, {
    get(target, prop) {
      if (prop === 'createRecord' || prop === 'updateRecord') return wrappers[prop];
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value.bind(target) as unknown) : value;
    },
  });
  skipped.set(proxy, counter);
  return proxy;
}

/** The ledger's version, or undefined when its backend has no cheap change counters. */
export function ledgerVersion(ledger: Ledger): string | undefined {
  const counters = countersOf(ledger);
  if (!counters) return undefined;
  return `${counters.external}.${counters.own - (skipped.get(ledger)?.changes ?? 0)}`;
}

function countersOf(ledger: Ledger): ChangeCounters | undefined {
  const read = (ledger as { changeCounters?: () => unknown }).changeCounters;
  if (typeof read !== 'function') return undefined;
  let value: unknown;
  try {
    value = read.call(ledger);
  } catch {
    return undefined;
  }
  // A stand-in ledger (mcp/unavailable-ledger.ts) answers every call with a rejected promise.
  if (value instanceof Promise) {
    value.catch(() => undefined);
    return undefined;
  }
  const counters = value as Partial<ChangeCounters> | undefined;
  return typeof counters?.external === 'number' && typeof counters.own === 'number' ? (counters as ChangeCounters) : undefined;
}
