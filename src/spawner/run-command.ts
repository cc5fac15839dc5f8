import { type CollectRequest, type CollectResult, collectOutput, isStartFailure, type StartFailure } from './collect-output.js';
import { helper } from './process-helper.js';

/** A command that could not start; `code` is Node's (ENOENT for a missing binary). */
export class CommandStartError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'CommandStartError';
  }
}

/**
 * Runs one short command to completion and returns its output, through the process's spawn
 * helper once it has one (spawn-helper.ts says why).
 * @throws CommandStartError when the command could not start
 */
export function runCommand(request: CollectRequest): Promise<CollectResult> {
  return new Promise((resolve, reject) => {
    const done = (result: CollectResult | StartFailure) =>
      isStartFailure(result) ? reject(new CommandStartError(result.message, result.code)) : resolve(result);
    if (!helper.take(request, done)) collectOutput(request, done);
  });
}
