import { withCommonOptions, lazyAction, type RegisterCommand, collect } from '../../context.js';

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
    .action(lazyAction(io, state, async () => (await import('./action.js')).runTaskAdd));
  withCommonOptions(task.command('list'))
    .description('list tasks, oldest first')
    .option('--status <status>', 'pending | in_progress | completed | blocked | archived (comma-separated)')
    .option('--limit <n>', 'page size', '50')
    .option('--cursor <cursor>', 'continue from a previous page')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runTaskList));
  withCommonOptions(task.command('show <id>'))
    .description('show a task and its last dispatches')
    .option('--dispatches <n>', 'how many dispatches to show', '5')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runTaskShow));
};
