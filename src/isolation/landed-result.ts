import type { LandedResult } from '../supervisor/index.js';
import { git } from '../workspace/index.js';
import type { IntegrationTarget } from './integration-target.js';
import { taskBranch, taskOfSubject } from './task-branch.js';

/**
 * The result of `taskId` already on the target branch: its task branch (`baton/<task-id>`,
 * pushed together with the branch) holds a commit of this task that the branch's tip contains.
 * A worker that died after its push landed, before the ledger heard of it, leaves exactly this.
 */
export async function findLandedResult(repo: string, target: IntegrationTarget, taskId: string): Promise<LandedResult | undefined> {
  const commit = await target.readTaskBranch(taskBranch(taskId));
  if (!commit) return undefined;
  const tip = await target.fetchTip();
  if ((await git(['merge-base', '--is-ancestor', commit, tip], repo)).code !== 0) return undefined;
  // The task's own commit: the branch's commit, or (a merge "baton: integrate <task>") its first parent.
  const subject = (await git(['log', '-1', '--first-parent', '--no-merges', '--format=%s', commit], repo)).stdout.trim();
  const named = taskOfSubject(subject);
  if (named?.taskId !== taskId) return undefined;
  return { attempt: named.attempt, commit, into: target.name };
}
