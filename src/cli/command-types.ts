import type { Command } from 'commander';
import type { CliIO } from './context.js';

/** Shared by commands to set the process exit code without exiting. */
export interface CliState {
  exitCode: number;
}

/** What each command folder's index.ts exports: adds the command to the program. */
export type RegisterCommand = (program: Command, io: CliIO, state: CliState) => void;
