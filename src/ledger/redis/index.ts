export { openRedisLedger } from './open-redis-ledger.js';
export { redactRedisUrl } from './redact-redis-url.js';
