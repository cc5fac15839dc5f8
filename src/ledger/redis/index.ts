export { openRedisLedger, redactRedisUrl } from './open-redis-ledger.js';
