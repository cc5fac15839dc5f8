import { SpawnHelper } from './spawn-helper.js';

/** The process's one spawn helper, shared by short commands (runCommand) and supervised ones (runSupervised). */
export const helper = new SpawnHelper();
