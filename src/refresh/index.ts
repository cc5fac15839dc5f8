export * from './light.js';
export { buildContinuationPrompt } from './build-continuation-prompt.js';
export { detectContinuationState } from './continuation-state.js';
export { gatherSnapshot } from './gather-snapshot.js';
export { readGitState } from './read-git-state.js';
export {
  DEFAULT_COMMIT_LIMIT,
  DEFAULT_DISPATCH_LIMIT,
  DEFAULT_SESSION_ID,
  parseSince,
  refreshContext,
  warmRefresh,
} from './refresh-context.js';
export { refreshTasks } from './refresh-tasks.js';
export { METADATA_RESERVE_TOKENS, renderContext, sentTokens } from './render-context.js';
export { resolveInsideWorkspace } from './safe-path.js';
export { DEFAULT_STALE_AFTER_MS, stalenessWarnings } from './session-state.js';
export type { ContinuationState } from './continuation-state.js';
export type { RefreshTasksMetadata, RefreshTasksResult, TaskContext } from './refresh-tasks.js';
export type { RenderedContext, RenderOptions } from './render-context.js';
