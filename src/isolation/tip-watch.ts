import { git } from '../workspace/index.js';

/**
 * Watches a run's target branch for history rewritten under it (a force-push, `git reset --hard`):
 * the newest tip this run saw must stay in every later tip, or merging a task in would bring the
 * removed commits back, silently undoing the rewrite.
 */
export interface TipWatch {
  /**
   * Checks `tip` (just read) in the repository at `dir`: undefined when it holds the newest tip
   * seen and every commit in `holds` (the task's base), which it then remembers; else why not.
   */
  check(tip: string, dir: string, holds?: readonly string[]): Promise<string | undefined>;
  /** A tip this run moved the branch to itself (its push). */
  pushed(tip: string): void;
}

/** A TipWatch for the branch named `name`, from `start` (the tip the run started from) when known. */
export function tipWatch(name: string, start?: string): TipWatch {
  let newest = start;
  return {
    async check(tip, dir, holds = []) {
      for (const commit of [newest, ...holds]) {
        if (commit === undefined || commit === tip || (await contains(dir, tip, commit))) continue;
        return (
          `${name} was rewritten during this run (a force-push or git reset): its tip ${short(tip)} no longer holds ` +
          `${short(commit)}, which this run ${commit === newest ? 'last saw there' : 'started this task from'}. Baton stops integrating ` +
          `into it rather than merge the removed commits back: restore the branch or start a new run`
        );
      }
      newest = tip;
      return undefined;
    },
    pushed(tip) {
      newest = tip;
    },
  };
}

async function contains(dir: string, tip: string, commit: string): Promise<boolean> {
  return (await git(['merge-base', '--is-ancestor', commit, tip], dir)).code === 0;
}

function short(commit: string): string {
  return commit.slice(0, 12);
}
