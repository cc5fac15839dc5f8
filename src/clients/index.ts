export { CLIENT_LIMITS } from './client-limits.js';
export type { ClientForwarding, ClientLimits, ResourceForwarding } from './client-limits.js';
