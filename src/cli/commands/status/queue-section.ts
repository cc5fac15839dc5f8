import type { QueueStatus } from '../../../queue/index.js';

/** The queue and its live workers, when the ledger is on Redis (`baton worker`); undefined otherwise. */
export async function readQueueSection(spec: string | undefined, namespace: string): Promise<QueueStatus | undefined> {
  if (!spec || !/^rediss?:\/\//.test(spec)) return undefined;
  const { queueConnection, queuePrefix, readQueueStatus } = await import('../../../queue/index.js');
  const connection = queueConnection(spec);
  try {
    return await readQueueStatus(connection, queuePrefix(namespace));
  } finally {
    connection.disconnect();
  }
}

export function renderQueueSection(queue: QueueStatus): string {
  const c = queue.counts;
  const paused = queue.pausedForMs > 0 ? `; paused ${Math.ceil(queue.pausedForMs / 1000)} s more (every provider's breaker open)` : '';
  return [
    `queue: ${c.waiting} waiting, ${c.active} active, ${c.delayed} delayed (dependencies), ${c.completed} completed, ${c.failed} failed, ${queue.stalled} stalled${paused}`,
    `workers: ${queue.workers.length === 0 ? 'none live' : queue.workers.join(', ')}`,
  ].join('\n');
}
