/**
 * The refresh functions, loaded on first use rather than at start-up (the MCP server's tools and
 * warm-up). A single-task refresh loads only the gathering half: the renderers and the o200k
 * tokenizer vocabulary load where the render happens, on the render worker when there is one.
 * Several tasks at once share one token budget, so that path loads the tokenizer on this thread.
 */
type RefreshModule = typeof import('./refresh-context.js');
type RefreshTasksModule = typeof import('./refresh-tasks.js');

let loading: Promise<RefreshModule> | undefined;
let loadingTasks: Promise<RefreshTasksModule> | undefined;

export function loadRefresh(): Promise<RefreshModule> {
  loading ??= import('./refresh-context.js');
  return loading;
}

export function loadRefreshTasks(): Promise<RefreshTasksModule> {
  loadingTasks ??= import('./refresh-tasks.js');
  return loadingTasks;
}
