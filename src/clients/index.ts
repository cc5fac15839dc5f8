export { CLIENT_LIMITS } from './client-limits.js';
export type { ClientLimits } from './client-limits.js';
