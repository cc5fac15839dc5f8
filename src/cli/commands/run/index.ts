import { withCommonOptions, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton run PLAN`: the supervisor's control loop over a plan file. */
export const registerRun: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('run'))
    .description('run a plan (JSON or YAML) through the provider chain with retries, validation and pre-context')
    .argument('<plan>', 'plan file: { tasks: [{ id, instructions, acceptance_criteria, depends_on, ... }] }')
    .option('--providers <list>', 'comma-separated provider names in priority order (default: config priority)')
    .option('--max-retries <n>', 'attempts per task without its own retry_policy.max_retries (default 3)')
    .option('--workspace <dir>', 'folder the agents work in and checks run in (default: current folder)')
    .option('--metrics-port <port>', 'serve Prometheus /metrics on this port while running')
    .option('--max-wait <ms>', 'wait up to this long for a breaker reset when every provider is open (default 0)')
    .option(
      '--concurrency <n>',
      'run up to N independent tasks at once, each in its own git worktree on branch baton/<task-id>, integrated into the current branch (default 1: one at a time in the working tree)',
    )
    .option(
      '--queue',
      'put the tasks on the BullMQ queue of the Redis ledger for `baton worker` processes, wait, and report (needs --ledger redis://…)',
    )
    .option('--remote <name>', 'with --queue: the git remote workers integrate into (default origin)')
    .option('--keep-worktrees', "with --concurrency: keep each task's worktree and branch after integration")
    .action(lazyAction(io, state, async () => (await import('./action.js')).runRun));
};
