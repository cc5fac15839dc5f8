export { isLoopbackHost, TOKEN_COOKIE } from './check-access.js';
export { DEFAULT_UI_HOST, DEFAULT_UI_PORT, startUiServer } from './start-ui-server.js';
export { MAX_SEARCH_MATCHES, TASK_PAGE_SIZE } from './views/tasks-view.js';
export { OUTCOME_WINDOW } from './views/providers-view.js';
export { DEFAULT_POLL_MS } from './watch-ledger.js';
export type { QueuePanel, UiServer, UiServerOptions } from './types.js';
