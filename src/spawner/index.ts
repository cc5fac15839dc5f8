export { CappedOutput, DEFAULT_OUTPUT_CAP_BYTES } from './capped-output.js';
export { CommandStartError, runCommand } from './run-command.js';
export { runSupervised, signalGroup } from './run-supervised.js';

export type { SupervisedResult, SuperviseHooks, SuperviseRequest } from './run-supervised.js';
