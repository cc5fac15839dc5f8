import type { CommonOptions } from '../../context.js';

/** Flags of `baton bench context`. */
export interface BenchContextOptions extends CommonOptions {
  traj?: string[];
  budget: string;
  out?: string;
  latencyRuns?: string;
}
