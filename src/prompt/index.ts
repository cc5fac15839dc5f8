export { buildHelperPrompt } from './build-helper-prompt.js';
export { buildTaskPrompt } from './build-task-prompt.js';
export { DEFAULT_RECENT_HISTORY_WINDOW, loadPromptState } from './load-prompt-state.js';

export type { TaskPromptOptions } from './build-task-prompt.js';
export type { LoadPromptStateOptions } from './load-prompt-state.js';
export type { MinimalState } from './types.js';
export { isSupervisedTry, supervisedLink } from './light.js';
export type { SupervisedLink } from './light.js';
