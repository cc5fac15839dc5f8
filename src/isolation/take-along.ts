import type { Task } from '../ledger/index.js';
import { git, gitOk } from './git.js';
import type { IntegrationOutcome, OfferedCommit } from './integration-turns.js';
import { workspaceIn } from './worktree-ops.js';

export interface TakenAlong {
  commit: OfferedCommit;
  outcome: IntegrationOutcome;
}

/**
 * Merges other workers' offered commits into the worktree's HEAD, one after another, each as
 * its own `baton: integrate <task>` merge, and runs each task's checks on the result as it would
 * have on its own. A commit that does not merge cleanly, or whose checks fail there, is undone and
 * left to its worker, which integrates it alone (and so builds its own merge-conflict context).
 */
export async function takeAlong(
  dir: string,
  commits: readonly OfferedCommit[],
  identity: Readonly<Record<string, string>>,
  by: string,
): Promise<TakenAlong[]> {
  const results: TakenAlong[] = [];
  for (const commit of commits) {
    const merge = await git(['merge', '--no-edit', '--no-verify', '-m', `baton: integrate ${commit.taskId}`, commit.sha], dir, identity);
    if (merge.code !== 0) {
      await git(['merge', '--abort'], dir);
      await gitOk(['reset', '--hard', '--quiet', 'HEAD'], dir);
      results.push({ commit, outcome: { ok: false, reason: 'did not merge cleanly with the others taken along' } });
      continue;
    }
    if (!/^Already up.to.date/m.test(merge.stdout)) {
      const failed = await failingCheck(commit.checks, dir);
      if (failed) {
        await gitOk(['reset', '--hard', '--quiet', 'ORIG_HEAD'], dir);
        results.push({ commit, outcome: { ok: false, reason: `${failed} after merging the others taken along` } });
        continue;
      }
    }
    results.push({ commit, outcome: { ok: true, by } });
  }
  return results;
}

/** The task's check commands, in order. */
export function checkCommands(task: Pick<Task, 'acceptanceCriteria'>): string[] {
  return task.acceptanceCriteria.flatMap((c) => (c.check ? [c.check] : []));
}

/** The first of `checks` that fails in `dir`, described; undefined when all pass. */
export async function failingCheck(checks: readonly string[], dir: string): Promise<string | undefined> {
  for (const check of checks) {
    const result = await workspaceIn(dir).runCheck(check, { timeoutMs: 120_000 });
    if (!result.ok) return `check failed: ${check}`;
  }
  return undefined;
}
