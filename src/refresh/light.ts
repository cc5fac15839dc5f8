// The light face of refresh/: what a process needs before its first refresh (the caches, the
// render thread, the formats and their budgets, the snapshots, git's location), without the
// gathering and the renderers, which load on first use (loadRefresh). index.ts re-exports it all.
// Why a second face: in the bundled `baton mcp` (scripts/bundle-cli.mjs) a static import of a
// file puts every file it imports into the start-up chunks; index.ts names the renderers, which
// bring the tokenizer.
export { FORMAT_TOKEN_CAPS, PROMPT_TOKEN_CAPS } from './format-budgets.js';
export { DEFAULT_GIT_CACHE_TTL_MS, GitCache } from './git-cache.js';
export { readGitKey, readHead } from './git-key.js';
// git's location lives in workspace/ (the hooks find it too); named here for start-up's callers.
export { locateGit } from '../workspace/index.js';
export { ledgerVersion, trackLedgerWrites } from './ledger-version.js';
export { loadRefresh, loadRefreshTasks } from './load-refresh.js';
export { RenderWorker } from './render-worker.js';
export { DEFAULT_RESULT_MAX_AGE_MS, DEFAULT_RESULT_MAX_ENTRIES, ResultCache } from './result-cache.js';
export { compareSnapshots, deltaSinceTime, snapshotEntities } from './snapshot-delta.js';
export { listSnapshots, loadSnapshot, SNAPSHOT_DIR, saveSnapshot } from './snapshot-store.js';
export { MAX_TASKS_PER_REFRESH, REFRESH_FORMATS } from './types.js';
export type { GitCacheGetOptions, GitCacheOptions, GitLookup } from './git-cache.js';
export type { GitLocation } from '../workspace/index.js';
export type { ResultCacheOptions, ResultCacheStatus } from './result-cache.js';
export type { ContextDelta, DeltaEntry } from './snapshot-delta.js';
export type { SnapshotIndexData } from './snapshot-store.js';
export type * from './types.js';
