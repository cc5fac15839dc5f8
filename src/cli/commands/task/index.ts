import type { RegisterCommand } from '../../command-types.js';
import { type CommonOptions, withCommonOptions } from '../../context.js';
import type { TaskAddOptions } from './options.js';

const collect = (value: string, previous: string[]) => [...previous, value];

/** `baton task add|list|show`. */
export const registerTask: RegisterCommand = (program, io, state) => {
  const task = program.command('task').description('add, list and show tasks in the ledger');
  withCommonOptions(task.command('add <id>'))
    .description('add a task')
    .requiredOption('--title <title>', 'short title')
    .option('--instructions <text>', 'what the agent must do')
    .option('--intent <text>', 'why the task exists')
    .option('--criterion <text>', 'acceptance criterion, repeatable; "description :: check command" adds a check', collect, [])
    .option('--depends-on <ids>', 'comma-separated task ids this task waits for')
    .option('--priority <n>', 'higher runs first', '0')
    .option('--mode <mode>', 'agent mode, e.g. coder or researcher')
    .option('--difficulty <level>', 'e.g. easy, medium, hard')
    .action(async (id: string, options: TaskAddOptions) => {
      const { runTaskAdd } = await import('./action.js');
      state.exitCode = await runTaskAdd(io, id, options);
    });
  withCommonOptions(task.command('list'))
    .description('list tasks, oldest first')
    .option('--status <status>', 'pending | in_progress | completed | blocked | archived (comma-separated)')
    .option('--limit <n>', 'page size', '50')
    .option('--cursor <cursor>', 'continue from a previous page')
    .action(async (options: CommonOptions & { status?: string; limit: string; cursor?: string }) => {
      const { runTaskList } = await import('./action.js');
      state.exitCode = await runTaskList(io, options);
    });
  withCommonOptions(task.command('show <id>'))
    .description('show a task and its last dispatches')
    .option('--dispatches <n>', 'how many dispatches to show', '5')
    .action(async (id: string, options: CommonOptions & { dispatches: string }) => {
      const { runTaskShow } = await import('./action.js');
      state.exitCode = await runTaskShow(io, id, options);
    });
};
