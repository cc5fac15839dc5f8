/**
 * The refresh module, loaded on first use rather than at start-up: it brings the o200k tokenizer
 * vocabulary and the renderers (over 100 ms of start-up), which `initialize` does not need. The
 * warm-up (warm-up.ts) starts this load in the background as soon as the server is up.
 */
type RefreshModule = typeof import('../refresh/index.js');

let loading: Promise<RefreshModule> | undefined;

export function loadRefresh(): Promise<RefreshModule> {
  loading ??= import('../refresh/index.js');
  return loading;
}
