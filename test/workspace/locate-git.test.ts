import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readGitKey } from '../../src/refresh/index.js';
import { locateGit } from '../../src/workspace/index.js';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'baton-locate-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

describe('locateGit: the one walk up to `.git`', () => {
  it('finds a plain repository from its top: root, git dir and common dir are the `.git` folder', () => {
    const repo = path.join(dir, 'repo');
    execFileSync('git', ['init', '-q', repo]);
    expect(locateGit(repo)).toEqual({ root: repo, gitDir: path.join(repo, '.git'), commonDir: path.join(repo, '.git') });
  });

  it('finds the repository from a subfolder, as git does', async () => {
    const repo = path.join(dir, 'repo');
    execFileSync('git', ['init', '-q', repo]);
    const sub = path.join(repo, 'src', 'deep');
    await mkdir(sub, { recursive: true });
    expect(locateGit(sub)?.root).toBe(repo);
    expect(locateGit(sub)?.root).toBe(git(sub, 'rev-parse', '--show-toplevel'));
  });

  it('follows a linked worktree `.git` file to its own git dir and the shared common dir', async () => {
    const repo = path.join(dir, 'repo');
    execFileSync('git', ['init', '-q', repo]);
    await writeFile(path.join(repo, 'a.txt'), 'a');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'one');
    const tree = path.join(dir, 'tree');
    git(repo, 'worktree', 'add', '-q', '-b', 'side', tree);
    const location = locateGit(tree);
    if (!location) throw new Error('no location for the worktree');
    expect(location.root).toBe(tree);
    expect(location.gitDir).toBe(await realpath(git(tree, 'rev-parse', '--absolute-git-dir')));
    expect(location.gitDir).not.toBe(path.join(repo, '.git'));
    expect(location.commonDir).toBe(path.join(repo, '.git'));
    // The location serves the git key: HEAD of the worktree's branch, read through the common refs.
    expect(await readGitKey(location)).toContain(`refs/heads/side@${git(tree, 'rev-parse', 'HEAD')}`);
  });

  it('is undefined outside any repository (the walk ends at the file system root)', async () => {
    const plain = path.join(dir, 'plain', 'folder');
    await mkdir(plain, { recursive: true });
    // tmpdir is outside a repository on this machine; check that the premise holds before asserting.
    expect(() => git(plain, 'rev-parse', '--show-toplevel')).toThrow();
    expect(locateGit(plain)).toBeUndefined();
  });
});
