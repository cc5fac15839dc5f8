/**
 * takeAlong on a real repository: offered commits that merge cleanly and pass their checks are
 * merged one by one; one that conflicts, or whose check fails on the result, is undone and left
 * to its worker, and the work tree is left clean.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { takeAlong } from '../../src/isolation/take-along.js';
import { makeRepo } from '../refresh/helpers.js';

const repo = makeRepo({ 'README.md': 'line one\n' });
afterAll(() => repo.cleanup());

/** A commit on its own branch from the first commit, changing `files`; returns its id. */
function offeredCommit(name: string, files: Record<string, string>): string {
  repo.git('checkout', '-q', '-b', name, 'main~0');
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(repo.dir, file), text);
  repo.git('add', '-A');
  repo.git('commit', '-qm', name);
  const sha = repo.git('rev-parse', 'HEAD').trim();
  repo.git('checkout', '-q', 'main');
  return sha;
}

describe('takeAlong', () => {
  it('merges the clean ones, leaves a conflicting one and one whose check fails, and leaves the tree clean', async () => {
    const clean = offeredCommit('clean', { 'a.txt': 'a\n' });
    const conflicting = offeredCommit('conflicting', { 'README.md': 'line one, theirs\n' });
    const failing = offeredCommit('failing', { 'c.txt': 'c\n' });
    // HEAD (the worker's own integration) changed README.md's line too.
    writeFileSync(path.join(repo.dir, 'README.md'), 'line one, ours\n');
    repo.git('commit', '-qam', 'ours');
    const results = await takeAlong(
      repo.dir,
      [
        { taskId: 'clean', attempt: 1, sha: clean, checks: ['test -f a.txt'] },
        { taskId: 'conflicting', attempt: 2, sha: conflicting, checks: [] },
        { taskId: 'failing', attempt: 1, sha: failing, checks: ['test -f c.txt', 'test ! -f a.txt'] },
      ],
      {},
      'w1',
    );
    expect(results.map((r) => [r.commit.taskId, r.outcome])).toEqual([
      ['clean', { ok: true, by: 'w1' }],
      ['conflicting', { ok: false, reason: 'did not merge cleanly with the others taken along' }],
      ['failing', { ok: false, reason: 'check failed: test ! -f a.txt after merging the others taken along' }],
    ]);
    expect(repo.git('log', '-1', '--format=%s').trim()).toBe('baton: integrate clean');
    expect(repo.git('status', '--porcelain').trim()).toBe('');
    expect(
      execFileSync('git', ['ls-tree', '--name-only', 'HEAD'], { cwd: repo.dir, encoding: 'utf8' }).split('\n').filter(Boolean).sort(),
    ).toEqual(['README.md', 'a.txt']);
  });
});
