/**
 * A worker's task worktree measured from what staging the agent's work listed (`git add -A
 * --verbose`), on a real git worktree: the result must be exactly what git's index and status
 * give (snapshotWorkspace), and anything that leaves HEAD or the index changed, or a later run,
 * must be measured from git instead.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { siteWorkspace } from '../../src/isolation/site-workspace.js';
import { stageAll } from '../../src/isolation/worktree-ops.js';
import { snapshotOfCommit, snapshotWorkspace, type WorkspaceSnapshot } from '../../src/workspace/index.js';

const base = mkdtempSync(path.join(tmpdir(), 'baton-site-workspace-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

let made = 0;
/** A task worktree (detached, as a worker's slot) of a repository with a few files. */
function worktree(): string {
  const repo = path.join(base, `repo-${++made}`);
  mkdirSync(path.join(repo, 'src'), { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', 't@example.com');
  git(repo, 'config', 'user.name', 'T');
  writeFileSync(path.join(repo, '.gitignore'), 'ignored/\n');
  for (const name of ['keep.txt', 'edit.txt', 'gone.txt', 'move.txt', 'touch.txt', 'mode.sh', 'src/a.ts']) {
    writeFileSync(path.join(repo, name), `${name}\n`);
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'base');
  const dir = path.join(base, `slot-${made}`);
  git(repo, 'worktree', 'add', '-q', '--detach', dir, 'HEAD');
  return dir;
}

/** The site's measurement, its base snapshot as given (`extra` files added to it), and hooks that stage as a worker does. */
function site(dir: string, extra: Record<string, string> = {}, stage = () => stageAll(dir)) {
  const first = snapshotOfCommit(dir, git(dir, 'rev-parse', 'HEAD')).then((s): WorkspaceSnapshot => ({
    ...s,
    files: new Map([...s.files, ...Object.entries(extra)]),
  }));
  let checksPrepared = 0;
  const workspace = siteWorkspace(dir, first, {
    agentDone: stage,
    beforeChecks: async () => {
      checksPrepared += 1;
    },
  });
  return { workspace, prepared: () => checksPrepared };
}

/** Plays one agent run: `work` changes the worktree between the two measurements. */
async function run(workspace: ReturnType<typeof site>['workspace'], work: () => void, endsWell = true) {
  const before = await workspace.snapshot();
  work();
  if (endsWell) workspace.agentDone?.();
  const after = (await workspace.snapshot()) as WorkspaceSnapshot;
  return { after, diff: await workspace.diff(before, after) };
}

/** What git's index and status say the worktree holds (the measurement the fast path stands in for). */
const fromGit = async (dir: string) => (await snapshotWorkspace(dir, { gitTop: true })).files;

/** Every kind of change an agent makes, including paths git's verbose output must not garble. */
function agentWork(dir: string): void {
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('edit.txt'), 'edited\n');
  rmSync(at('gone.txt'));
  renameSync(at('move.txt'), at('moved.txt'));
  // Newer time, same content: not a change.
  utimesSync(at('touch.txt'), new Date(), new Date(Date.now() + 5_000));
  chmodSync(at('mode.sh'), 0o755);
  mkdirSync(at('out/deep'), { recursive: true });
  writeFileSync(at('out/deep/new.txt'), 'new\n');
  writeFileSync(at("it's a name.txt"), 'quotes and spaces\n');
  writeFileSync(at('é ü.txt'), 'unicode\n');
  symlinkSync('keep.txt', at('link'));
  mkdirSync(at('ignored'));
  writeFileSync(at('ignored/cache.bin'), 'ignored\n');
  mkdirSync(at('.baton'), { recursive: true });
  writeFileSync(at('.baton/state.json'), '{}\n');
}

describe('a worker task worktree measured from the staged work', () => {
  it('measures a first run from what staging listed, exactly as git would', async () => {
    const dir = worktree();
    // An entry only the base snapshot has: it survives only if no git listing ran.
    const { workspace, prepared } = site(dir, { 'ghost.txt': 'f'.repeat(40) });
    const { after, diff } = await run(workspace, () => agentWork(dir));
    expect(after.files.get('ghost.txt')).toBe('f'.repeat(40));
    const { 'ghost.txt': _ghost, ...measured } = Object.fromEntries(after.files);
    expect(measured).toEqual(Object.fromEntries(await fromGit(dir)));
    expect(diff).toEqual({
      created: ["it's a name.txt", 'link', 'moved.txt', 'out/deep/new.txt', 'é ü.txt'].sort(),
      updated: ['edit.txt'],
      deleted: ['gone.txt', 'move.txt'],
    });
    expect(git(dir, 'diff', '--cached', '--name-only', '-z').split('\0').filter(Boolean)).toContain('out/deep/new.txt');
    expect(prepared()).toBe(1);
  });

  it('asks git when the agent committed, staged, or a later run is measured', async () => {
    const cases: Record<string, (dir: string) => void> = {
      committed: (dir) => {
        writeFileSync(path.join(dir, 'committed.txt'), 'c\n');
        git(dir, 'add', 'committed.txt');
        git(dir, '-c', 'user.email=a@b', '-c', 'user.name=A', 'commit', '-qm', 'agent');
        writeFileSync(path.join(dir, 'after.txt'), 'a\n');
      },
      staged: (dir) => {
        writeFileSync(path.join(dir, 'staged.txt'), 's\n');
        git(dir, 'add', 'staged.txt');
      },
    };
    for (const [name, work] of Object.entries(cases)) {
      const dir = worktree();
      const { workspace } = site(dir, { 'ghost.txt': 'f'.repeat(40) });
      const { after, diff } = await run(workspace, () => work(dir));
      expect(after.files.has('ghost.txt'), name).toBe(false);
      expect(Object.fromEntries(after.files), name).toEqual(Object.fromEntries(await fromGit(dir)));
      expect(diff.created.length, name).toBeGreaterThan(0);
    }
    // A retry: its measurement before the run is git's, and so is the one after.
    const dir = worktree();
    const { workspace } = site(dir, { 'ghost.txt': 'f'.repeat(40) });
    await run(workspace, () => writeFileSync(path.join(dir, 'first.txt'), '1\n'));
    const second = await run(workspace, () => writeFileSync(path.join(dir, 'second.txt'), '2\n'));
    expect(second.after.files.has('ghost.txt')).toBe(false);
    expect(second.diff).toEqual({ created: ['second.txt'], updated: [], deleted: [] });
  });

  it('asks git after a run that did not end well, and when staging fails', async () => {
    const dir = worktree();
    const { workspace, prepared } = site(dir, { 'ghost.txt': 'f'.repeat(40) });
    const failed = await run(workspace, () => writeFileSync(path.join(dir, 'half.txt'), 'h\n'), false);
    expect(failed.after.files.has('ghost.txt')).toBe(false);
    expect(failed.diff.created).toEqual(['half.txt']);
    // The checks are only prepared for a run that ended well.
    expect(prepared()).toBe(0);

    // Staging that failed (git add -A exits non-zero, say on a file it cannot read) lists nothing to trust.
    const other = worktree();
    const unstaged = site(other, { 'ghost.txt': 'f'.repeat(40) }, async () => undefined);
    const measured = await run(unstaged.workspace, () => writeFileSync(path.join(other, 'ok.txt'), 'ok\n'));
    expect(measured.after.files.has('ghost.txt')).toBe(false);
    expect(measured.diff.created).toEqual(['ok.txt']);
  });

  it('lists what git add -A staged, paths verbatim', async () => {
    const dir = worktree();
    agentWork(dir);
    const staged = await stageAll(dir);
    // Baton's state folder is staged like any file that is not ignored; measurements leave it out.
    expect(staged?.added.sort()).toEqual(
      ['.baton/state.json', 'edit.txt', "it's a name.txt", 'link', 'mode.sh', 'moved.txt', 'out/deep/new.txt', 'é ü.txt'].sort(),
    );
    expect(staged?.removed.sort()).toEqual(['gone.txt', 'move.txt']);
    expect(await stageAll(path.join(base, 'not-a-repo'))).toBeUndefined();
  });
});
