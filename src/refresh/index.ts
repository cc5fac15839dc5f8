export * from './light.js';
export { buildContinuationPrompt } from './build-continuation-prompt.js';
export { detectContinuationState } from './continuation-state.js';
export { gatherSnapshot } from './gather-snapshot.js';
export { readGitState } from './read-git-state.js';
export { DEFAULT_COMMIT_LIMIT, DEFAULT_DISPATCH_LIMIT, refreshContext } from './refresh-context.js';
export { refreshTasks } from './refresh-tasks.js';
export { renderContext, sentTokens } from './render-context.js';
export { resolveInsideWorkspace } from './safe-path.js';

export type { RenderOptions } from './render-context.js';
