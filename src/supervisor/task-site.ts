import type { Task } from '../ledger/index.js';
import type { ConflictAuthor } from '../precontext/index.js';
import type { WorkspaceOps } from './types.js';

/** Where one task runs: its own working copy (a git worktree) with its own measurement. */
export interface TaskSite {
  /** The folder the agent works in and checks run in. */
  dir: string;
  workspace: WorkspaceOps;
  /**
   * Commits a passing attempt and integrates it into the run's branch. `recheck` runs the task's
   * checks again (their failures, one line each) when others' work came in under it; `signal`
   * (the run's) stops a wait for the branch's lock.
   */
  complete?: (attempt: number, options: { recheck: () => Promise<string[]>; signal?: AbortSignal }) => Promise<SiteOutcome>;
  /** Called when the task's run ends, whatever the outcome. */
  release(): Promise<void>;
}

/** What completing a passing attempt in its site came to. */
export type SiteOutcome =
  | {
      kind: 'integrated';
      /** The branch it went to (`main`, `origin/main`). */
      into: string;
      /** What the commit policy flagged and committed anyway ('flag'): one line each. */
      flagged: readonly string[];
      /** Where the time went, in ms (commit, lock wait, fetch, merge, recheck, push). */
      timings: Readonly<Record<string, number>>;
    }
  /** Others changed the same files: the next attempt starts from the new tip with a MERGE CONFLICT CONTEXT. */
  | { kind: 'conflict'; into: string; files: string[]; changedBy: ConflictAuthor[] }
  /** Not integrated: the next attempt is told why, or with `final` the task is blocked now (only the user can fix it). */
  | { kind: 'refused'; into: string; error: string; final: boolean };

/** A task's result found already integrated (its task branch, on the run's branch). */
export interface LandedResult {
  /** The attempt whose commit it is. */
  attempt: number;
  commit: string;
  into: string;
}

/** Gives each task its own site (src/isolation's worktrees), and finishes the run. */
export interface TaskSites {
  open(task: Task): Promise<TaskSite>;
  /**
   * The task's result when it is already on the run's branch (a run that died after its push
   * landed, before recording it): the task is then completed with it, without another agent run.
   */
  landed?(task: Task): Promise<LandedResult | undefined>;
  /** After the last task: bring the run's result into the user's working tree, tidy up. */
  finish?(): Promise<void>;
}
