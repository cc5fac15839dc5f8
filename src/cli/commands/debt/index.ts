import { withCommonOptions, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton debt add|list`: known issues and gotchas agents must not trip over again. */
export const registerDebt: RegisterCommand = (program, io, state) => {
  const debt = program.command('debt').description('record and list tech debt (known issues agents should know about)');
  withCommonOptions(debt.command('add <title>'))
    .description('record a tech debt item')
    .option('--category <category>', 'e.g. schema, tooling, architecture')
    .option('--description <text>', 'what is wrong')
    .option('--impact <text>', 'what it blocks or breaks')
    .option('--solution <text>', 'proposed solution')
    .option('--task <id>', 'related task id')
    .option('--severity <level>', 'low | medium | high | critical', 'medium')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runDebtAdd));
  withCommonOptions(debt.command('list'))
    .description('list tech debt, newest first')
    .option('--status <status>', 'open | resolved | all', 'open')
    .option('--task <id>', 'only items related to this task')
    .option('--limit <n>', 'page size', '50')
    .option('--cursor <cursor>', 'continue from a previous page')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runDebtList));
};
