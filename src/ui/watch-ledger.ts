import { type Ledger, openSqliteDataVersion } from '../ledger/index.js';

/** @default 500: a cheap check, twice a second, only while a page is listening. */
export const DEFAULT_POLL_MS = 500;

/** Returns a value that changes whenever the ledger was written; cheap enough to call often. */
export type ReadVersion = () => Promise<string>;

/**
 * Picks the cheapest change signal the backend offers. SQLite: `PRAGMA data_version` on a
 * separate read-only connection, which changes whenever any other connection (a `baton run`, a
 * worker, this process's ledger) commits; it costs a few microseconds and needs no file watching
 * (fs.watch misses WAL writes on some systems). Redis and memory cannot notify without extra
 * machinery, so they are polled with a fingerprint of counts and the newest rows.
 */
export async function createVersionReader(ledger: Ledger): Promise<{ read: ReadVersion; close: () => void }> {
  if (ledger.backend === 'sqlite') {
    const version = await openSqliteDataVersion(ledger.location);
    return { read: async () => version.read(), close: version.close };
  }
  return { read: () => fingerprint(ledger), close: () => undefined };
}

async function fingerprint(ledger: Ledger): Promise<string> {
  const [counts, dispatches, newest, breakers, sessions, agentSessions] = await Promise.all([
    ledger.countTasksByStatus(),
    ledger.countDispatches(),
    ledger.recentDispatches(1),
    ledger.listBreakers(),
    ledger.listRecords('sessions', { limit: 1 }),
    ledger.listRecords('agent_sessions', { limit: 1 }),
  ]);
  const last = newest[0];
  return JSON.stringify([
    counts,
    dispatches,
    last && [last.id, last.status, last.outcome, last.finishedAt, last.validationErrors.length],
    breakers.map((b) => [b.provider, b.generation]),
    sessions.items[0]?.updatedAt,
    agentSessions.items[0]?.updatedAt,
  ]);
}

/**
 * Polls `read` every `pollMs` while at least one listener is subscribed and calls every listener
 * when the value changes. Stops polling when the last listener leaves.
 */
export class LedgerWatcher {
  private readonly listeners = new Set<(version: string) => void>();
  private timer: NodeJS.Timeout | undefined;
  private last: string | undefined;
  private busy = false;

  constructor(
    private readonly read: ReadVersion,
    private readonly pollMs: number = DEFAULT_POLL_MS,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  subscribe(listener: (version: string) => void): () => void {
    this.listeners.add(listener);
    if (!this.timer) this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.last = undefined;
  }

  private start(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.pollMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const version = await this.read();
      if (this.last !== undefined && version !== this.last) {
        for (const listener of this.listeners) listener(version);
      }
      this.last = version;
    } catch (error) {
      this.onError(error);
    } finally {
      this.busy = false;
    }
  }
}
