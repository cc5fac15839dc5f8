import type { RegisterCommand } from '../../context.js';

/**
 * `baton hook EVENT --client CLIENT`: what the hooks `baton hooks install` writes run. bin/baton.js
 * runs it before this table loads (src/hooks/hook-main.ts); this entry gives it `--help` and serves callers
 * of the CLI as a library (runCli).
 */
export const registerHook: RegisterCommand = (program) => {
  program
    .command('hook <event>')
    .description(
      'run by an agent CLI hook: reads its JSON on stdin (events: session-start, prompt, post-tool, pre-compact, before-agent, stop, session-end)',
    )
    .requiredOption('--client <client>', 'claude | gemini | codex')
    .addHelpText(
      'after',
      "\nAlways exits 0 with nothing or the client's JSON on stdout: a problem (no ledger, a locked one, bad input) is logged to .baton/hooks/hooks.log instead. See docs/hooks.md.",
    )
    .action(async (event: string, options: { client: string }) => {
      const { hookMain } = await import('../../../hooks/index.js');
      await hookMain([event, '--client', options.client]);
    });
};
