export type { EnvRequest } from './child-env.js';
export type { CollectRequest, CollectResult } from './collect-output.js';
export { CappedOutput, DEFAULT_OUTPUT_CAP_BYTES } from './capped-output.js';
export { CommandStartError, runCommand } from './run-command.js';
export { runSupervised } from './run-supervised.js';
export { HELPER_AFTER_COMMANDS, SpawnHelper } from './spawn-helper.js';
export type { SupervisedResult, SuperviseHooks, SuperviseRequest } from './supervise-process.js';
