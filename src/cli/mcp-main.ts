import { registerMcp } from './commands/mcp/index.js';
import { processIO } from './context.js';
import { runProgram } from './run-program.js';

/**
 * `baton mcp`, as bin/baton.js runs it: a program holding that one command, bundled as its own
 * entry (scripts/bundle-cli.mjs) so a client's wait for `initialize` loads no other command.
 */
export function mcpMain(argv: string[]): Promise<number> {
  return runProgram(argv, processIO(), registerMcp);
}
