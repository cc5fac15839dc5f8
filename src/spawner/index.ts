export type { CollectRequest, CollectResult } from './collect-output.js';
export { CommandStartError, runCommand } from './run-command.js';
export { HELPER_AFTER_COMMANDS, SpawnHelper } from './spawn-helper.js';
