export { createLogger, getLogger, silentLogger } from './logger.js';
export { logLater } from './log-later.js';

export { counter, gauge, histogram, metricsRegistry, renderMetrics } from './metrics.js';
export type { Logger } from './logger.js';
