import type { Command } from 'commander';
import type { RegisterCommand } from '../../command-types.js';
import { withCommonOptions } from '../../context.js';
import type { WorkerOptions } from './action.js';

/** `baton worker`: takes queued tasks (BullMQ on the ledger's Redis) and runs them in worktrees of this clone. */
export const registerWorker: RegisterCommand = (program: Command, io, state) => {
  withCommonOptions(program.command('worker'))
    .description(
      "take tasks queued by `baton run --queue` from the Redis ledger's BullMQ queue; run each in a git worktree of this clone and push the result to the remote",
    )
    .option('--concurrency <n>', 'tasks run at once by this worker (default 1)')
    .option('--providers <list>', 'comma-separated provider names in priority order (default: config priority)')
    .option('--metrics-port <port>', 'serve Prometheus /metrics (queue jobs by state, live workers, stalled jobs, dispatches) on this port')
    .option('--keep-worktrees', "keep each task's worktree and branch after integration")
    .action(async (options: WorkerOptions) => {
      const { runWorker } = await import('./action.js');
      state.exitCode = await runWorker(io, options);
    });
};
