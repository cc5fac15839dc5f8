import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitCache, readGitState } from '../../src/refresh/index.js';
import { makeRepo, tempDir } from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('readGitState on a real repository', () => {
  it('runs git at a low CPU priority for a background read (the MCP warm-up), at normal priority otherwise', async () => {
    const repo = makeRepo({ 'a.txt': 'one\n' });
    cleanups.push(repo.cleanup);
    // A git in front of the real one on PATH that logs its own niceness, then runs the real git.
    const bin = tempDir();
    cleanups.push(bin.cleanup);
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const log = path.join(bin.dir, 'nice.log');
    writeFileSync(path.join(bin.dir, 'git'), `#!/bin/sh\nsleep 0.1\nnice >> "${log}"\nexec "${realGit}" "$@"\n`);
    chmodSync(path.join(bin.dir, 'git'), 0o755);
    const path0 = process.env.PATH;
    process.env.PATH = `${bin.dir}${path.delimiter}${path0 ?? ''}`;
    try {
      const state = await readGitState(repo.dir, { background: true });
      expect(state.recentCommits.map((c) => c.subject)).toEqual(['initial commit']);
      // status, log and the numstat diff.
      expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['15', '15', '15']);
      writeFileSync(log, '');
      await readGitState(repo.dir);
      expect(
        readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map(Number)
          .every((n) => n < 15),
      ).toBe(true);
    } finally {
      process.env.PATH = path0;
    }
  });

  it('reports branch, staged, unstaged and untracked counts, line stats and recent commits', async () => {
    const repo = makeRepo({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    cleanups.push(repo.cleanup);
    repo.git('checkout', '-qb', 'feature/refresh');
    writeFileSync(path.join(repo.dir, 'a.txt'), 'one\nmore\nlines\n');
    writeFileSync(path.join(repo.dir, 'b.txt'), 'changed\n');
    repo.git('add', 'b.txt');
    writeFileSync(path.join(repo.dir, 'c.txt'), 'new\n');
    const state = await readGitState(repo.dir, { commitLimit: 3 });
    expect(state.branch).toBe('feature/refresh');
    expect(state.uncommitted).toBe(3);
    expect(state.staged).toBe(1);
    expect(state.untracked).toBe(1);
    const a = state.changedFiles.find((f) => f.path === 'a.txt');
    expect(a).toMatchObject({ added: 2, deleted: 0, staged: false });
    expect(state.diffSummary).toBe('+3 -1 in 2 tracked files, 1 untracked');
    expect(state.recentCommits.map((c) => c.subject)).toEqual(['initial commit']);
    expect(state.diff).toBeUndefined();
  });

  it('reads the full diff only when asked, and cuts it at the size limit', async () => {
    const repo = makeRepo({ 'big.txt': 'x\n' });
    cleanups.push(repo.cleanup);
    writeFileSync(path.join(repo.dir, 'big.txt'), 'line of text\n'.repeat(5000));
    const state = await readGitState(repo.dir, { includeDiff: true, maxDiffChars: 2000 });
    expect(state.diff).toContain('diff --git a/big.txt b/big.txt');
    expect(state.diff?.length).toBeLessThan(2100);
    expect(state.diff).toContain('[diff cut at');
  });

  it('handles a repository without commits', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
    writeFileSync(path.join(dir, 'x.txt'), 'x');
    const state = await readGitState(dir);
    expect(state.head).toBeUndefined();
    expect(state.branch).toBe('main');
    expect(state.untracked).toBe(1);
    expect(state.recentCommits).toEqual([]);
  });
});

describe('GitCache', () => {
  it('serves repeated reads from the cache while HEAD and the index are unchanged', async () => {
    const repo = makeRepo();
    cleanups.push(repo.cleanup);
    const cache = new GitCache();
    const first = await cache.get(repo.dir);
    const second = await cache.get(repo.dir);
    expect(first.hit).toBe(false);
    expect(second.hit).toBe(true);
    expect(cache.hits).toBe(1);
    expect(cache.misses).toBe(1);
  });

  it('misses at once after a commit moves HEAD', async () => {
    const repo = makeRepo();
    cleanups.push(repo.cleanup);
    const cache = new GitCache();
    const before = await cache.get(repo.dir);
    writeFileSync(path.join(repo.dir, 'new.txt'), 'new');
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'second commit');
    const after = await cache.get(repo.dir);
    expect(after.hit).toBe(false);
    expect(after.state.head).not.toBe(before.state.head);
    expect(after.state.recentCommits[0]?.subject).toBe('second commit');
  });

  it('expires entries after the configured time to live', async () => {
    const repo = makeRepo();
    cleanups.push(repo.cleanup);
    let now = 1_000_000;
    const cache = new GitCache({ ttlMs: 60_000, now: () => now });
    await cache.get(repo.dir);
    now += 59_000;
    expect((await cache.get(repo.dir)).hit).toBe(true);
    now += 2_000;
    expect((await cache.get(repo.dir)).hit).toBe(false);
  });

  it('rejects a folder that is not in a git repository', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    await expect(new GitCache().get(dir)).rejects.toThrow(/not a git repository/);
  });
});
