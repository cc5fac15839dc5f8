import { processIO } from './context.js';
import { main as runMain } from './program.js';

/** Entry used by bin/baton.js. */
export function main(argv: string[]): Promise<number> {
  return runMain(argv, processIO());
}

export { main as runCli, VERSION } from './program.js';
export type { CliIO } from './context.js';
