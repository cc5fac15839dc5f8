// The light face of refresh/: what a process needs before its first refresh (the caches, the
// render thread, the formats and their budgets, the snapshots, git's location), without the
// gathering and the renderers, which load on first use (loadRefresh). index.ts re-exports it all.
// Why a second face: in the bundled `baton mcp` (scripts/bundle-cli.mjs) a static import of a
// file puts every file it imports into the start-up chunks; index.ts names the renderers, which
// bring the tokenizer.
export { FORMAT_TOKEN_CAPS, resolveFormat } from './format-budgets.js';
export { GitCache } from './git-cache.js';
export { readGitKey } from './git-key.js';
// git's location lives in workspace/ (the hooks find it too); named here for start-up's callers.
export { locateGit } from '../workspace/index.js';
export { ledgerVersion, trackLedgerWrites } from './ledger-version.js';
export { loadRefresh, loadRefreshTasks } from './load-refresh.js';
export { RenderWorker } from './render-worker.js';
export { ResultCache } from './result-cache.js';
export { compareSnapshots } from './snapshot-delta.js';
export { listSnapshots, loadSnapshot, SNAPSHOT_DIR, saveSnapshot } from './snapshot-store.js';
export { MAX_TASKS_PER_REFRESH, REFRESH_FORMATS } from './types.js';
export type { GitCacheOptions } from './git-cache.js';

export type { ContextDelta, DeltaEntry } from './snapshot-delta.js';
export type { SnapshotIndexData } from './snapshot-store.js';
export type * from './types.js';
