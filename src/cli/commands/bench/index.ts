import { withJsonOption, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton bench context`: replays agent trajectories through four context strategies. */
export const registerBench: RegisterCommand = (program, io, state) => {
  const bench = program.command('bench').description('benchmarks of Baton mechanisms');
  withJsonOption(bench.command('context'))
    .description(
      'replay SWE-agent .traj / OpenHands .jsonl trajectories and score context strategies per budget; with --sessions, replay agent CLI sessions (Claude Code, Codex CLI, Gemini CLI, Copilot CLI) and score Baton and recency on the six facts',
    )
    .option('--traj <paths...>', 'trajectory files or folders (default: ../shared/fixtures/swe-agent-trajectories/)')
    .option(
      '--sessions [paths...]',
      'agent CLI session files or folders (no path: ../shared/fixtures/agent-sessions/); with --traj, those trajectories are scored on the same facts',
    )
    .option('--budget <list>', 'comma-separated token budgets (default: 4096,8192,16384; with --sessions 2048,4096,8192)')
    .option('--out <file>', 'also write the JSON report to this file')
    .option('--latency-runs <n>', 'time each build n times and keep the fastest (1: what a caller sees)', '1')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runBenchContext));
};
