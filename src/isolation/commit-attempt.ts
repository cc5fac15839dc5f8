import { BatonError } from '../errors/index.js';
import { git, gitOk } from '../workspace/index.js';
import { type CommitPolicy, findViolations } from './commit-policy.js';

/** A passing attempt committed in its worktree, or refused by the commit policy. */
export type CommitResult = { refused?: undefined; committed: boolean; flagged: string[] } | { refused: string };

/**
 * `git add -A && git commit` in a task's worktree, with the commit policy checked on what was
 * staged: `committed` is false when there was nothing to commit.
 * @throws BatonError INTERNAL when git fails
 */
export async function commitAttempt(
  dir: string,
  message: string,
  identity: Readonly<Record<string, string>>,
  policy: CommitPolicy,
): Promise<CommitResult> {
  await gitOk(['add', '-A'], dir);
  const violations = await findViolations(dir, policy);
  if (violations.length > 0 && policy.onViolation === 'refuse') {
    return { refused: `not committed, by the commit policy (commitPolicy.onViolation "refuse"): ${violations.join('; ')}` };
  }
  const commit = await git(['commit', '--quiet', '--no-verify', '-m', message], dir, { env: identity });
  if (commit.code === 0) return { committed: true, flagged: violations };
  if ((await git(['diff', '--cached', '--quiet'], dir)).code === 0) return { committed: false, flagged: [] };
  throw new BatonError('INTERNAL', `git commit failed in ${dir}: ${(commit.stderr || commit.stdout).trim() || `exit ${commit.code}`}`, {
    details: { cwd: dir, exitCode: commit.code },
  });
}
