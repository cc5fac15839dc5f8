export * from './light.js';

export { contextBudget } from './build-injection.js';
export { CLIENT_SPECS, clientLabel, isAgentClient } from './client-specs.js';

export { hookMain } from './hook-main.js';

export { JsonStringCutter } from './json-string-cutter.js';
export { hooksStatus } from './hooks-status.js';
export { HOOK_SCOPES } from './hook-targets.js';
export { installHooks, uninstallHooks } from './install-hooks.js';

export { codexHooksFeatureOn, withCodexHooksFeature } from './codex-features.js';

export { sessionNextStep } from './next-step.js';

export { CONTEXT_TITLE, renderHookContext } from './render-hook-context.js';
export { DEFAULT_DEADLINES_MS, runHook } from './run-hook.js';
export { STALE_JOB_MS } from './hook-jobs.js';
export { HOOK_EVENTS } from './types.js';

export type { HooksStatus } from './hooks-status.js';
export type { HookScope } from './hook-targets.js';
export type { HookInstallResult } from './install-hooks.js';

export type { AgentClient, HookContextData, HookEvent } from './types.js';
