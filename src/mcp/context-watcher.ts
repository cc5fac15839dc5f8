import { errorMessage } from '../errors/index.js';
// Not the logger itself: pino loads only when a record is written (log-later.ts).
import { logLater } from '../observability/index.js';
import { locateGit, readGitKey } from '../refresh/light.js';
import type { WorkspaceState } from './workspace-state.js';

/** @default 1000: how often subscribed contexts are checked for staleness. */
export const DEFAULT_WATCH_INTERVAL_MS = 1_000;

export interface ContextWatcherOptions {
  /** @default DEFAULT_WATCH_INTERVAL_MS */
  intervalMs?: number;
  /** Called with a subscribed URI whose context went stale. */
  notify: (uri: string) => Promise<void>;
}

/**
 * Watches git HEAD/index and the ledger (dispatch count, newest dispatch, task counts, and each
 * subscribed task's updatedAt) by polling, and notifies every subscribed context URI when one of
 * them changed (§8.3). Polling instead of fs.watch: it works the same for a ledger in Redis and
 * for repositories on network file systems. Runs only while something is subscribed.
 */
export class ContextWatcher {
  private readonly subscriptions = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private fingerprint: string | undefined;
  private polling = false;
  private readonly intervalMs: number;

  constructor(
    private readonly state: WorkspaceState,
    private readonly options: ContextWatcherOptions,
  ) {
    this.intervalMs = options.intervalMs ?? DEFAULT_WATCH_INTERVAL_MS;
  }

  async subscribe(uri: string): Promise<void> {
    this.subscriptions.add(uri);
    if (!this.timer) {
      this.fingerprint = await this.read().catch(() => undefined);
      this.timer = setInterval(() => void this.poll(), this.intervalMs);
      this.timer.unref();
    }
  }

  unsubscribe(uri: string): void {
    this.subscriptions.delete(uri);
    if (this.subscriptions.size === 0) this.stop();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One check; exposed so tests and callers can force it. */
  async poll(): Promise<void> {
    if (this.polling || this.subscriptions.size === 0) return;
    this.polling = true;
    try {
      const next = await this.read();
      if (this.fingerprint !== undefined && next !== this.fingerprint) {
        await Promise.all([...this.subscriptions].map((uri) => this.options.notify(uri)));
      }
      this.fingerprint = next;
    } catch (error) {
      logLater('warn', { err: errorMessage(error) }, 'context watcher: check failed');
    } finally {
      this.polling = false;
    }
  }

  private async read(): Promise<string> {
    if (!this.state.root) return 'no-workspace';
    const { root, ledger } = await this.state.require();
    const taskIds = [...this.subscriptions].map(taskIdOf).filter((id): id is string => id !== undefined);
    const location = locateGit(root);
    const [git, count, latest, byStatus, tasks] = await Promise.all([
      location ? readGitKey(location) : Promise.resolve('no-git'),
      ledger.countDispatches(),
      ledger.recentDispatches(1),
      ledger.countTasksByStatus(),
      Promise.all(taskIds.map((id) => ledger.getTask(id))),
    ]);
    const last = latest[0];
    return JSON.stringify([
      root,
      git,
      count,
      last ? [last.id, last.status, last.finishedAt] : null,
      byStatus,
      tasks.map((t) => t?.updatedAt ?? null),
    ]);
  }
}

/** The task id in `baton://context/{task_id}`; undefined for `current`. */
export function taskIdOf(uri: string): string | undefined {
  const match = /^baton:\/\/context\/([^?]+)/.exec(uri);
  const id = match?.[1] ? decodeURIComponent(match[1]) : undefined;
  return id === 'current' ? undefined : id;
}
