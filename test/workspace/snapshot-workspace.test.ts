import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { diffSnapshots, snapshotWorkspace } from '../../src/workspace/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'baton-ws-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(rel: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
  await writeFile(path.join(dir, rel), content);
}

function git(...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'ignore' });
}

describe('snapshotWorkspace + diffSnapshots in a git repository', () => {
  beforeEach(async () => {
    git('init', '-q');
    await write('.gitignore', 'ignored.log\n');
    await write('src/a.ts', 'a1');
    await write('src/b.ts', 'b1');
    await write('gone.txt', 'bye');
    await write('dirty.txt', 'v1');
    git('add', '.');
    git('commit', '-q', '-m', 'init');
  });

  it('measures created, updated and deleted files, sorted and relative', async () => {
    await write('dirty.txt', 'v2'); // dirty before the run
    await write('pre-existing-untracked.txt', 'u1');
    const before = await snapshotWorkspace(dir);
    expect(before.kind).toBe('git');

    await write('src/a.ts', 'a2');
    await write('src/new dir/c.ts', 'c');
    await write('z-new.txt', 'z');
    await unlink(path.join(dir, 'gone.txt'));
    await write('dirty.txt', 'v3'); // modified a second time during the run
    await write('pre-existing-untracked.txt', 'u2');
    await write('ignored.log', 'noise');
    await write('.baton/agent.db', 'ledger bytes');

    const diff = diffSnapshots(before, await snapshotWorkspace(dir));
    expect(diff).toEqual({
      created: ['src/new dir/c.ts', 'z-new.txt'],
      updated: ['dirty.txt', 'pre-existing-untracked.txt', 'src/a.ts'],
      deleted: ['gone.txt'],
    });
  });

  it('sees changes the agent committed itself, and renames as delete plus create', async () => {
    const before = await snapshotWorkspace(dir);
    await write('src/b.ts', 'b2');
    git('mv', 'src/a.ts', 'src/renamed.ts');
    git('commit', '-q', '-am', 'agent work');
    const diff = diffSnapshots(before, await snapshotWorkspace(dir));
    expect(diff).toEqual({ created: ['src/renamed.ts'], updated: ['src/b.ts'], deleted: ['src/a.ts'] });
  });

  it('reports nothing when a dirty file was left unchanged', async () => {
    await write('dirty.txt', 'v2');
    const before = await snapshotWorkspace(dir);
    const diff = diffSnapshots(before, await snapshotWorkspace(dir));
    expect(diff).toEqual({ created: [], updated: [], deleted: [] });
  });

  it('walks a folder git ignores instead of trusting git status there', async () => {
    await write('.gitignore', 'ignored.log\nscratch/\n');
    await write('scratch/keep.txt', 'k');
    const scratch = path.join(dir, 'scratch');
    const before = await snapshotWorkspace(scratch);
    expect(before.kind).toBe('plain');
    await write('scratch/new.txt', 'n');
    expect(diffSnapshots(before, await snapshotWorkspace(scratch)).created).toEqual(['new.txt']);
  });

  it('measures relative to a subfolder of the repository', async () => {
    const sub = path.join(dir, 'src');
    const before = await snapshotWorkspace(sub);
    await write('src/a.ts', 'changed');
    await write('outside.txt', 'not in the workspace');
    const diff = diffSnapshots(before, await snapshotWorkspace(sub));
    expect(diff).toEqual({ created: [], updated: ['a.ts'], deleted: [] });
  });
});

describe('snapshotWorkspace + diffSnapshots in a plain folder', () => {
  it('walks the folder with default and .gitignore ignores', async () => {
    await write('.gitignore', '*.tmp\nbuild/\n/rooted.txt\n# comment\n');
    await write('keep.txt', 'k1');
    await write('old.txt', 'o');
    const before = await snapshotWorkspace(dir);
    expect(before.kind).toBe('plain');

    await write('keep.txt', 'k2');
    await unlink(path.join(dir, 'old.txt'));
    await write('docs/new.md', '# new');
    await write('node_modules/pkg/index.js', 'x');
    await write('dist/out.js', 'x');
    await write('.baton/agent.db', 'x');
    await write('scratch.tmp', 'x');
    await write('build/app.bin', 'x');
    await write('rooted.txt', 'x');
    await write('nested/rooted.txt', 'kept: only the root one is ignored');

    const diff = diffSnapshots(before, await snapshotWorkspace(dir));
    expect(diff).toEqual({ created: ['docs/new.md', 'nested/rooted.txt'], updated: ['keep.txt'], deleted: ['old.txt'] });
  });

  it('rejects a workspace that is not a folder', async () => {
    const error = await snapshotWorkspace(path.join(dir, 'missing')).catch((e: unknown) => e);
    expect(isBatonError(error, 'WORKSPACE_NOT_SET')).toBe(true);
  });
});
