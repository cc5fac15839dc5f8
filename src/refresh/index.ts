export { buildContinuationPrompt } from './build-continuation-prompt.js';
export { detectContinuationState } from './continuation-state.js';
export { FORMAT_TOKEN_CAPS, PROMPT_TOKEN_CAPS } from './format-budgets.js';
export { gatherSnapshot } from './gather-snapshot.js';
export { DEFAULT_GIT_CACHE_TTL_MS, GitCache } from './git-cache.js';
export { findGitLocation, readGitKey, readHead } from './git-key.js';
export { readGitState } from './read-git-state.js';
export {
  DEFAULT_COMMIT_LIMIT,
  DEFAULT_DISPATCH_LIMIT,
  DEFAULT_SESSION_ID,
  parseSince,
  refreshContext,
  warmRefresh,
} from './refresh-context.js';
export { ledgerVersion, trackLedgerWrites } from './ledger-version.js';
export { RenderWorker } from './render-worker.js';
export { DEFAULT_RESULT_MAX_AGE_MS, DEFAULT_RESULT_MAX_ENTRIES, ResultCache } from './result-cache.js';
export { refreshTasks } from './refresh-tasks.js';
export { MAX_TASKS_PER_REFRESH } from './types.js';
export { METADATA_RESERVE_TOKENS, renderContext, sentTokens } from './render-context.js';
export { resolveInsideWorkspace } from './safe-path.js';
export { DEFAULT_STALE_AFTER_MS, stalenessWarnings } from './session-state.js';
export { compareSnapshots, deltaSinceTime, snapshotEntities } from './snapshot-delta.js';
export { listSnapshots, loadSnapshot, SNAPSHOT_DIR, saveSnapshot } from './snapshot-store.js';
export { REFRESH_FORMATS } from './types.js';
export type { ContinuationState } from './continuation-state.js';
export type { GitCacheGetOptions, GitCacheOptions, GitLookup } from './git-cache.js';
export type { ResultCacheOptions, ResultCacheStatus } from './result-cache.js';
export type { GitLocation } from './git-key.js';
export type { RefreshTasksMetadata, RefreshTasksResult, TaskContext } from './refresh-tasks.js';
export type { RenderedContext, RenderOptions } from './render-context.js';
export type { ContextDelta, DeltaEntry } from './snapshot-delta.js';
export type { SnapshotIndexData } from './snapshot-store.js';
export type * from './types.js';
