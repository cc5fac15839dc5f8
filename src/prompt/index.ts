export { buildHelperPrompt, HELPER_RESPONSE_MAX_CHARS } from './build-helper-prompt.js';
export { buildTaskPrompt } from './build-task-prompt.js';
export { DEFAULT_MAX_BLOCKERS, DEFAULT_RECENT_HISTORY_WINDOW, DEFAULT_RECENT_SESSIONS, loadPromptState } from './load-prompt-state.js';
export { DEFAULT_RESULT_TOKENS, toMinimalState } from './to-minimal-state.js';
export { isSupervisedTry, relevantSessions } from './relevant-sessions.js';
export type { HelperPromptInput } from './build-helper-prompt.js';
export type { TaskPromptOptions } from './build-task-prompt.js';
export type { LoadPromptStateOptions } from './load-prompt-state.js';
export type { ActiveBlocker, MinimalState, PromptTask, RecentHistoryEntry, RecentSessionEntry, RecentSessionFacts } from './types.js';
