/**
 * The refresh modules, loaded on first use rather than at start-up. A single-task refresh loads
 * only the gathering half: the renderers and the o200k tokenizer vocabulary (most of a cold start)
 * load where the render happens, on the render worker when there is one. Several tasks at once
 * share one token budget here, so that path loads the tokenizer on this thread. The warm-up
 * (warm-up.ts) starts these loads in the background as soon as the server is up.
 */
type RefreshModule = typeof import('../refresh/refresh-context.js');
type RefreshTasksModule = typeof import('../refresh/refresh-tasks.js');

let loading: Promise<RefreshModule> | undefined;
let loadingTasks: Promise<RefreshTasksModule> | undefined;

export function loadRefresh(): Promise<RefreshModule> {
  loading ??= import('../refresh/refresh-context.js');
  return loading;
}

export function loadRefreshTasks(): Promise<RefreshTasksModule> {
  loadingTasks ??= import('../refresh/refresh-tasks.js');
  return loadingTasks;
}
