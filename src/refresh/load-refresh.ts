/**
 * The refresh functions, loaded on first use rather than at start-up (the MCP server's tools and
 * warm-up). A single-task refresh loads only the gathering half: the renderers and the o200k
 * tokenizer vocabulary load where the render happens, on the render worker when there is one.
 * Several tasks at once share one token budget, so that path loads the tokenizer on this thread.
 * import() itself loads a module once: later calls get the same one.
 */
export function loadRefresh(): Promise<typeof import('./refresh-context.js')> {
  return import('./refresh-context.js');
}

export function loadRefreshTasks(): Promise<typeof import('./refresh-tasks.js')> {
  return import('./refresh-tasks.js');
}
