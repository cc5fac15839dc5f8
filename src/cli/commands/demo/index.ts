import { withJsonOption, lazyAction, type RegisterCommand } from '../../context.js';

/** `baton demo`: the bundled example plan, showing what is injected at each seam. */
export const registerDemo: RegisterCommand = (program, io, state) => {
  withJsonOption(program.command('demo'))
    .description(
      'run the bundled example plan with example agents in a temporary git workspace and show the context injected at each seam (on its own SQLite ledger beside the workspace)',
    )
    .option('--keep', 'keep the temporary workspace and print its path')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runDemo));
};
