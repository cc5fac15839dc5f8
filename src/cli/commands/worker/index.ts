import { withCommonOptions, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton worker`: takes queued tasks (BullMQ on the ledger's Redis) and runs them in worktrees of this clone. */
export const registerWorker: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('worker'))
    .description(
      "take tasks queued by `baton run --queue` from the Redis ledger's BullMQ queue; run each in a git worktree of this clone and push the result to the remote",
    )
    .option('--concurrency <n>', 'tasks run at once by this worker (default 1)')
    .option('--providers <list>', 'comma-separated provider names in priority order (default: config priority)')
    .option('--metrics-port <port>', 'serve Prometheus /metrics (queue jobs by state, live workers, stalled jobs, dispatches) on this port')
    .option('--keep-worktrees', "keep each task's worktree and branch after integration")
    .action(lazyAction(io, state, async () => (await import('./action.js')).runWorker));
};
