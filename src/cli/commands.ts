import type { Command } from 'commander';
import { registerBench } from './commands/bench/index.js';
import { registerDebt } from './commands/debt/index.js';
import { registerDemo } from './commands/demo/index.js';
import { registerExport } from './commands/export/index.js';
import { registerImport } from './commands/import/index.js';
import { registerHandoff } from './commands/handoff/index.js';
import { registerHook } from './commands/hook/index.js';
import { registerHooks } from './commands/hooks/index.js';
import { registerInit } from './commands/init/index.js';
import { registerMcp } from './commands/mcp/index.js';
import { registerRefresh } from './commands/refresh/index.js';
import { registerRun } from './commands/run/index.js';
import { registerPanel } from './commands/panel/index.js';
import { registerServe } from './commands/serve/index.js';
import { registerSessions } from './commands/sessions/index.js';
import { registerStatus } from './commands/status/index.js';
import { registerTask } from './commands/task/index.js';
import { registerUi } from './commands/ui/index.js';
import { registerWorker } from './commands/worker/index.js';
import type { CliIO, CliState, RegisterCommand } from './context.js';

/**
 * The command table. Each command lives in its own folder under commands/, registers its flags
 * here and imports its implementation only when run, so `baton --help` stays fast. Errors thrown
 * by an action reach run-program.ts, which maps them to exit codes (2 bad input, 1 failure).
 */
const COMMANDS: RegisterCommand[] = [
  registerDemo,
  registerRun,
  registerInit,
  registerStatus,
  registerTask,
  registerDebt,
  registerRefresh,
  registerMcp,
  registerPanel,
  registerServe,
  registerBench,
  registerExport,
  registerImport,
  registerUi,
  registerWorker,
  registerHooks,
  registerHook,
  registerSessions,
  registerHandoff,
];

export function registerCommands(program: Command, io: CliIO, state: CliState): void {
  for (const register of COMMANDS) register(program, io, state);
}
