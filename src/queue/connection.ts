import { Redis } from 'ioredis';

/** A connection BullMQ accepts (workers block on it, so requests are never retried out). */
export function queueConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
}
