export { startUiServer } from './start-ui-server.js';
export { TASK_PAGE_SIZE } from './views/tasks-view.js';

export type { QueuePanel, UiServer } from './types.js';
