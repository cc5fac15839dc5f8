import { errorMessage } from '../../../errors/index.js';
import type { QueuePanel } from '../../../ui/index.js';

/** Where bull-board is mounted inside `baton ui`. */
export const DASHBOARD_PATH = '/queue/dashboard';

/**
 * The Queue view's panel when the ledger is on Redis: the counts and live workers `baton status`
 * shows (src/queue's readQueueStatus) and, when its optional packages are installed, bull-board
 * read-only. Undefined for other ledgers (there is no queue without Redis).
 */
export async function openQueuePanel(
  spec: string | undefined,
  namespace: string,
  importModule?: (name: string) => Promise<unknown>,
): Promise<{ panel: QueuePanel; close: () => Promise<void> } | undefined> {
  if (!spec || !/^rediss?:\/\//.test(spec)) return undefined;
  const { QUEUE_NAME, mountQueueDashboard, queueConnection, queuePrefix, readQueueStatus } = await import('../../../queue/index.js');
  const connection = queueConnection(spec);
  const prefix = queuePrefix(namespace);
  try {
    // A dashboard that fails to load (say, an incompatible bull-board) costs the link, not the page.
    const dashboard = await mountQueueDashboard({ connection, prefix, basePath: DASHBOARD_PATH, importModule }).catch((error: unknown) => ({
      available: false as const,
      failed: errorMessage(error),
      close: async () => undefined,
    }));
    const panel: QueuePanel = {
      name: QUEUE_NAME,
      version: async () => {
        const status = await readQueueStatus(connection, prefix);
        return JSON.stringify([status.counts, status.stalled, status.pausedForMs > 0, status.workers]);
      },
      summary: async () => {
        const status = await readQueueStatus(connection, prefix);
        return {
          counts: { ...status.counts, stalled: status.stalled },
          workers: status.workers.map((id) => ({ id })),
          pausedForMs: status.pausedForMs,
        };
      },
      ...(dashboard.available
        ? { handle: dashboard.handle }
        : {
            dashboardHint:
              'missing' in dashboard
                ? `The job dashboard (bull-board) is an optional add-on: ${dashboard.missing} to get it.`
                : `The job dashboard (bull-board) could not be loaded: ${dashboard.failed}`,
          }),
    };
    return {
      panel,
      close: async () => {
        await dashboard.close();
        connection.disconnect();
      },
    };
  } catch (error) {
    connection.disconnect();
    throw error;
  }
}
