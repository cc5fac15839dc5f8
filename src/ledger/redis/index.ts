import { BatonError } from '../../errors/index.js';
import type { Ledger } from '../ledger.js';

export interface RedisLedgerOptions {
  connectTimeoutMs: number;
  namespace: string;
  now?: () => number;
}

/** Placeholder until the Redis backend lands. */
export async function openRedisLedger(url: string, _options: RedisLedgerOptions): Promise<Ledger> {
  throw new BatonError('INTERNAL', `Redis ledger not implemented yet (${url})`);
}
