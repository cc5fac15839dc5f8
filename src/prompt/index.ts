export { buildHelperPrompt } from './build-helper-prompt.js';
export { buildTaskPrompt } from './build-task-prompt.js';
export { loadPromptState } from './load-prompt-state.js';

export type { TaskPromptOptions } from './build-task-prompt.js';
export type { LoadPromptStateOptions } from './load-prompt-state.js';
export type { MinimalState } from './types.js';
export { supervisedLink } from './light.js';
