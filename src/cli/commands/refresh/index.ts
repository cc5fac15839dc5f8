import { withCommonOptions, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton refresh [TASK]`: the session-recovery context of seed 002, as refresh_context returns it. */
export const registerRefresh: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('refresh [task]'))
    .description('summarize where work stands and print a continuation prompt (session recovery)')
    .option('--format <format>', 'minimal | standard | detailed (JSON) | narrative (markdown); default: narrative, standard with --json')
    .option('--since <when>', 'only what changed since an ISO time, epoch ms or snapshot id (snap-…)')
    .option('--save', 'save the snapshot under .baton/snapshots/')
    .option('--session <id>', 'session whose last refresh is compared for staleness', 'cli')
    .option('--no-git', 'leave git out')
    .option('--no-prompt', 'leave the continuation prompt out')
    .option('--dispatch-limit <n>', 'recent dispatches to include')
    .option('--commit-limit <n>', 'recent commits to include')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runRefresh));
};
