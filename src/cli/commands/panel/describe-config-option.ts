import type { Command } from 'commander';

/**
 * Re-describes the shared --config option: everywhere else it names baton.config.json, but for
 * `baton panel` and `baton serve` it names the panel file, and --help should say so.
 */
export function describePanelConfigOption(command: Command): Command {
  const option = command.options.find((candidate) => candidate.long === '--config');
  if (option) option.description = 'the panel file (required), e.g. examples/panel/panel.json';
  return command;
}
