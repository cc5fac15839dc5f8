import type { Ledger } from '../ledger/index.js';
import type { GitCache } from '../refresh/index.js';
import type { SafeHtml } from './html.js';

/**
 * What a job queue mounts into the Queue view (`baton ui` builds one from src/queue when the ledger
 * is Redis). Both parts are optional: `summary` fills the counts table, `handle` serves a dashboard
 * under `/queue/dashboard/` (bull-board, read-only). Without a queue the view shows an empty state.
 */
export interface QueuePanel {
  /** Queue name shown as the heading. */
  name: string;
  /** Job counts by state and the workers seen, read when the view renders. */
  summary?: () => Promise<{
    counts: Record<string, number>;
    workers: Array<{ id: string; lastSeenAt?: number }>;
    /** How long the queue stays paused (rate limit with every breaker open); 0 or absent when it is not. */
    pausedForMs?: number;
  }>;
  /** Serves `/queue/dashboard/...`; the request has already passed the token check (GET/HEAD only). */
  handle?: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
  /**
   * A value that changes when the queue does (jobs move, workers come and go). Polled with the
   * ledger's own change check while a page listens, so the Queue view updates live.
   */
  version?: () => Promise<string>;
  /** Shown instead of the dashboard link when no dashboard can be served, e.g. which package to install. */
  dashboardHint?: string;
}

export interface UiServerOptions {
  ledger: Ledger;
  /** 0 picks a free port. @default DEFAULT_UI_PORT */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** Required when `host` is not a loopback address. */
  token?: string;
  /** Workspace whose git state and snapshots the recovery view reads. @default process.cwd() */
  workspace?: string;
  queue?: QueuePanel;
  /** How often the ledger is checked for changes while a page listens. @default DEFAULT_POLL_MS */
  pollMs?: number;
  /** Clock, for tests. @default Date.now */
  now?: () => number;
}

export interface UiServer {
  /** The page's address, e.g. http://127.0.0.1:8766/ */
  url: string;
  port: number;
  close(): Promise<void>;
}

export type NavKey = 'tasks' | 'providers' | 'recovery' | 'sessions' | 'handoffs' | 'panels' | 'queue';

/** What every view gets: the ledger, the request's URL and a fixed `now` for one render. */
export interface ViewContext {
  ledger: Ledger;
  url: URL;
  now: number;
  workspace: string;
  gitCache: GitCache;
  queue?: QueuePanel;
}

export interface ViewResult {
  title: string;
  nav: NavKey;
  body: SafeHtml;
  status?: number;
}
