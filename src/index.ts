/**
 * Baton as a library: the ledger, token counting and budgeting, and (as the modules land) the
 * pre-context builders, supervisor, refresh, panel and loop context manager.
 */
export * from './budget/index.js';
export * from './errors/index.js';
export * from './ledger/index.js';
export * from './observability/index.js';
export * from './tokens/index.js';
