import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';
import { BatonError } from '../errors/index.js';
import { git, gitOk } from '../workspace/index.js';

/** @default 10 MiB: larger files are a violation of the commit policy. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * What a task may commit to the run's branch. A symlink that points outside the repository, or
 * a file over `maxFileBytes`, is a violation; `onViolation` says what then happens.
 */
export interface CommitPolicy {
  /** @default DEFAULT_MAX_FILE_BYTES */
  maxFileBytes: number;
  /**
   * 'refuse': the attempt fails, naming them (the next attempt is told why); 'flag': they are
   * committed and named in the attempt's result and the run report. @default 'refuse'
   */
  onViolation: 'refuse' | 'flag';
}

export const DEFAULT_COMMIT_POLICY: CommitPolicy = { maxFileBytes: DEFAULT_MAX_FILE_BYTES, onViolation: 'refuse' };

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

/** One line per violation among what is staged in `dir` (against HEAD): the path and why. */
async function findViolations(dir: string, policy: CommitPolicy): Promise<string[]> {
  const staged = await git(['diff', '--cached', '--no-renames', '--diff-filter=AMT', '--raw', '-z', 'HEAD'], dir);
  // Records: ":<old mode> <new mode> <old id> <new id> <status>" NUL "<path>" NUL.
  const fields = staged.stdout.split('\0');
  const violations: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const mode = fields[i]?.split(' ')[1];
    const file = fields[i + 1] as string;
    const why = mode === '120000' ? await outsideLink(dir, file) : await tooLarge(dir, file, policy.maxFileBytes);
    if (why) violations.push(`${file}: ${why}`);
  }
  return violations;
}

async function outsideLink(dir: string, file: string): Promise<string | undefined> {
  const target = await readlink(path.join(dir, file)).catch(() => undefined);
  if (target === undefined) return undefined;
  const inside = path.relative(dir, path.resolve(path.dirname(path.join(dir, file)), target));
  if (!path.isAbsolute(target) && inside !== '..' && !inside.startsWith(`..${path.sep}`)) return undefined;
  return `a symlink to ${target}, outside the repository`;
}

async function tooLarge(dir: string, file: string, maxBytes: number): Promise<string | undefined> {
  const size = (await lstat(path.join(dir, file)).catch(() => undefined))?.size ?? 0;
  return size > maxBytes ? `${sizeOf(size)}, over the ${sizeOf(maxBytes)} limit (commitPolicy.maxFileBytes)` : undefined;
}

function sizeOf(bytes: number): string {
  return bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
