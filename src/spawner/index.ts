export { CappedOutput, DEFAULT_OUTPUT_CAP_BYTES } from './capped-output.js';
export { CommandStartError, runCommand } from './run-command.js';
export { runSupervised } from './run-supervised.js';

export type { SupervisedResult, SuperviseRequest } from './run-supervised.js';
