import type { Command } from 'commander';
import type { CliIO, CliState } from './context.js';

export type { CliState };

/** What each command folder's index.ts exports: adds the command to the program. */
export type RegisterCommand = (program: Command, io: CliIO, state: CliState) => void;
