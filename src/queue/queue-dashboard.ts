import type { IncomingMessage, ServerResponse } from 'node:http';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAME } from './defaults.js';

/** The optional packages that give the queue dashboard (bull-board on its express adapter). */
export const DASHBOARD_PACKAGES = ['@bull-board/api', '@bull-board/express'] as const;

export type QueueDashboard =
  | { available: true; handle: (req: IncomingMessage, res: ServerResponse) => void; close: () => Promise<void> }
  | { available: false; missing: string; close: () => Promise<void> };

export interface QueueDashboardOptions {
  connection: Redis;
  prefix: string;
  /** Path the dashboard is served under, e.g. `/queue/dashboard`. */
  basePath: string;
  /** Loads a package; tests point it at a name that is not installed. @default dynamic import */
  importModule?: (name: string) => Promise<unknown>;
}

/**
 * Mounts bull-board, read-only, for the queue of a ledger namespace, when its packages are
 * installed (they are optional peer dependencies: express and bull-board's UI weigh more than the
 * rest of Baton's page). Without them it says which packages to install instead of failing.
 */
export async function mountQueueDashboard(options: QueueDashboardOptions): Promise<QueueDashboard> {
  const load = options.importModule ?? ((name: string) => import(name));
  let api: BullBoardApi, adapters: BullMQAdapterModule, expressAdapter: ExpressAdapterModule, express: ExpressModule;
  try {
    api = (await load('@bull-board/api')) as BullBoardApi;
    adapters = (await load('@bull-board/api/bullMQAdapter')) as BullMQAdapterModule;
    expressAdapter = (await load('@bull-board/express')) as ExpressAdapterModule;
    // express comes with @bull-board/express (its dependency).
    express = (await load('express')) as ExpressModule;
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    return { available: false, missing: `npm install ${DASHBOARD_PACKAGES.join(' ')}`, close: async () => undefined };
  }
  const queue = new Queue(QUEUE_NAME, { connection: options.connection, prefix: options.prefix });
  const serverAdapter = new expressAdapter.ExpressAdapter();
  serverAdapter.setBasePath(options.basePath);
  api.createBullBoard({
    // readOnlyMode hides retry/clean/pause/remove; the ui server also refuses every method but GET/HEAD.
    queues: [new adapters.BullMQAdapter(queue, { readOnlyMode: true })],
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Baton queue' } },
  });
  const app = (express.default ?? express)();
  app.disable('x-powered-by');
  app.use(options.basePath, serverAdapter.getRouter());
  return {
    available: true,
    handle: (req, res) => app(req, res),
    close: () => queue.close(),
  };
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

// Just the shapes used here, so the packages stay optional at compile time too.
interface BullBoardApi {
  createBullBoard(options: { queues: unknown[]; serverAdapter: unknown; options?: { uiConfig?: Record<string, unknown> } }): unknown;
}
interface BullMQAdapterModule {
  BullMQAdapter: new (queue: Queue, options?: { readOnlyMode?: boolean }) => unknown;
}
interface ExpressAdapterModule {
  ExpressAdapter: new () => { setBasePath(path: string): unknown; getRouter(): unknown };
}
interface ExpressApp {
  (req: IncomingMessage, res: ServerResponse): void;
  disable(setting: string): void;
  use(path: string, handler: unknown): void;
}
type ExpressModule = { default?: () => ExpressApp } & (() => ExpressApp);
