export { DEFAULT_COMMAND_TIMEOUT_MS, openRedisLedger } from './open-redis-ledger.js';
export { redactRedisUrl } from './redact-redis-url.js';
export type { RedisLedgerOptions } from './open-redis-ledger.js';
