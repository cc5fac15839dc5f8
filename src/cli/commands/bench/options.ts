import type { CommonOptions } from '../../context.js';

/** Flags of `baton bench context`. */
export interface BenchContextOptions extends CommonOptions {
  traj?: string[];
  /** `true` for the flag without paths. */
  sessions?: string[] | true;
  budget?: string;
  out?: string;
  latencyRuns?: string;
}
