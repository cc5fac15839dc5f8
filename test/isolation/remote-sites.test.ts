/**
 * createRemoteSites (what `baton worker` runs tasks in) driven directly against a real bare
 * remote and real clones: a passing attempt is committed, the remote's tip merged in (the task's
 * checks run again only when it brought others' work) and pushed with a compare-and-swap that
 * starts over when someone else pushed first; a conflict names the files and who changed them;
 * the commit policy refuses or flags what it should; every repository stays `git fsck` clean. A
 * remote that refuses the push (its pre-receive hook, no write access) is final: the remote's own
 * `remote:` lines are the reason, and the agent is not run again for it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CommitPolicy, createRemoteSites, inProcessLock } from '../../src/isolation/index.js';
import { materializeTask, MemoryLedger } from '../../src/ledger/index.js';
import { silentLogger } from '../../src/observability/index.js';
import { parsePlan, runPlan, type SiteOutcome, type TaskSite, toNewTask } from '../../src/supervisor/index.js';
import { makeRepo } from '../refresh/helpers.js';
import { agent, readAgentLog } from '../supervisor/helpers.js';

const base = mkdtempSync(path.join(tmpdir(), 'baton-remote-sites-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** A bare remote made from a repository of `files`, and `n` clones of it. */
function remoteWithClones(
  n: number,
  files: Record<string, string> = { 'README.md': 'remote sites\n' },
): { remote: string; clones: string[] } {
  const origin = makeRepo(files);
  const remote = path.join(base, `remote-${path.basename(origin.dir)}.git`);
  execFileSync('git', ['clone', '-q', '--bare', origin.dir, remote]);
  origin.cleanup();
  const clones = Array.from({ length: n }, (_, i) => {
    const clone = path.join(base, `${path.basename(remote)}-clone-${i + 1}`);
    execFileSync('git', ['clone', '-q', remote, clone]);
    git(clone, 'config', 'user.email', 'w@example.com');
    git(clone, 'config', 'user.name', `Worker ${i + 1}`);
    return clone;
  });
  return { remote, clones };
}

const task = (id: string, check = `test -f ${id}.txt`) =>
  materializeTask({ id, title: id, acceptanceCriteria: [{ description: `${id} holds`, check }] }, Date.now());

async function sitesOf(clone: string, policy?: CommitPolicy) {
  const sites = await createRemoteSites({
    repoDir: clone,
    lock: inProcessLock(),
    logger: silentLogger,
    ...(policy ? { commitPolicy: policy } : {}),
  });
  return { sites, branch: await sites.forBranch('origin', 'main') };
}

/** Completes an attempt with a recheck that runs the given checks in the site, counting its calls. */
function completer(site: TaskSite, checks: readonly string[] = []) {
  const calls = { recheck: 0 };
  const complete = (attempt = 1, onRecheck?: () => void): Promise<SiteOutcome> =>
    site.complete!(attempt, {
      recheck: async () => {
        calls.recheck += 1;
        onRecheck?.();
        const failed: string[] = [];
        for (const check of checks)
          if (!(await site.workspace.runCheck(check, { timeoutMs: 10_000 })).ok) failed.push(`check failed: ${check}`);
        return failed;
      },
    });
  return { complete, calls };
}

/** `git daemon` serving `root` read-only (receive-pack is off by default), on a free port. */
async function readOnlyDaemon(root: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn(
    'git',
    ['daemon', '--reuseaddr', `--base-path=${root}`, '--export-all', '--listen=127.0.0.1', `--port=${port}`, root],
    {
      stdio: 'ignore',
    },
  );
  // Ready once it accepts a connection.
  for (let ready = false; !ready;) {
    ready = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(true)).on('error', () => resolve(false));
      socket.unref();
      setTimeout(() => socket.destroy(), 100);
    });
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `git://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => (child.once('exit', () => resolve()), child.kill())),
  };
}

const fsckClean = (dir: string) => execFileSync('git', ['fsck', '--full', '--strict', '--no-progress'], { cwd: dir, encoding: 'utf8' });

describe('remote task sites (baton worker)', () => {
  it("re-runs a task's checks after merging others' work, and only then; a failing recheck pushes nothing", async () => {
    const { remote, clones } = remoteWithClones(1);
    const { sites, branch } = await sitesOf(clones[0]!);
    // Both start from the same tip. b's check passes alone and fails once a's file is there.
    const a = await branch.open(task('a'));
    const b = await branch.open(task('b'));
    writeFileSync(path.join(a.dir, 'a.txt'), 'a\n');
    writeFileSync(path.join(b.dir, 'b.txt'), 'b\n');
    const ca = completer(a, ['test -f a.txt']);
    expect(await ca.complete()).toMatchObject({ kind: 'integrated', into: 'origin/main' });
    expect(ca.calls.recheck).toBe(0);
    const cb = completer(b, ['test -f b.txt && ! test -f a.txt']);
    expect(await cb.complete()).toEqual({
      kind: 'refused',
      into: 'origin/main',
      final: false,
      error: 'after merging origin/main: check failed: test -f b.txt && ! test -f a.txt',
    });
    expect(cb.calls.recheck).toBe(1);
    // The next attempt starts from the tip the checks failed on.
    expect(git(b.dir, 'rev-parse', 'HEAD')).toBe(git(remote, 'rev-parse', 'main'));
    for (const site of [a, b]) await site.release();
    await sites.close();
    expect(git(remote, 'ls-tree', '--name-only', 'main').split('\n').sort()).toEqual(['README.md', 'a.txt']);
    expect(git(remote, 'rev-parse', 'baton/a')).toBe(git(remote, 'rev-parse', 'main'));
    fsckClean(remote);
  });

  it('starts over from the fetch when someone else pushed between its fetch and its push (the compare-and-swap)', async () => {
    const { remote, clones } = remoteWithClones(3);
    const [first, second, outsider] = clones as [string, string, string];
    const one = await sitesOf(first);
    const two = await sitesOf(second);
    const a = await one.branch.open(task('a'));
    const b = await two.branch.open(task('b'));
    writeFileSync(path.join(a.dir, 'a.txt'), 'a\n');
    writeFileSync(path.join(b.dir, 'b.txt'), 'b\n');
    expect((await completer(a).complete()).kind).toBe('integrated');
    // b's merge brings a's commit, so b's checks run; meanwhile someone outside Baton pushes.
    const cb = completer(b, ['test -f b.txt']);
    const outcome = await cb.complete(1, () => {
      if (cb.calls.recheck > 1) return;
      writeFileSync(path.join(outsider, 'outside.txt'), 'x\n');
      git(outsider, 'pull', '-q', '--no-rebase', 'origin', 'main');
      git(outsider, 'add', '-A');
      git(outsider, 'commit', '-qm', 'outside');
      git(outsider, 'push', '-q', 'origin', 'HEAD:main');
    });
    expect(outcome).toMatchObject({ kind: 'integrated', timings: { races: 1 } });
    // Checked again after the second merge (it brought the outside commit).
    expect(cb.calls.recheck).toBe(2);
    expect(git(remote, 'ls-tree', '--name-only', 'main').split('\n').sort()).toEqual(['README.md', 'a.txt', 'b.txt', 'outside.txt']);
    for (const site of [a, b]) await site.release();
    await one.sites.close();
    await two.sites.close();
    fsckClean(remote);
    for (const clone of clones) fsckClean(clone);
  });

  it('merges a tip that changed the same file elsewhere, and on a real conflict names the files and the newest task that changed them', async () => {
    const lines = ['one', 'two', 'three', 'four', 'five', 'six', 'seven'];
    const { remote, clones } = remoteWithClones(2, { 'notes.txt': `${lines.join('\n')}\n` });
    const one = await sitesOf(clones[0]!);
    const two = await sitesOf(clones[1]!);
    const a = await one.branch.open(task('a'));
    const b = await two.branch.open(task('b'));
    const c = await two.branch.open(task('c'));
    writeFileSync(path.join(a.dir, 'notes.txt'), `${['ONE', ...lines.slice(1)].join('\n')}\n`);
    writeFileSync(path.join(b.dir, 'notes.txt'), `${[...lines.slice(0, 6), 'SEVEN'].join('\n')}\n`);
    writeFileSync(path.join(c.dir, 'notes.txt'), `${['uno', ...lines.slice(1)].join('\n')}\n`);
    expect((await completer(a).complete()).kind).toBe('integrated');
    expect((await completer(b).complete()).kind).toBe('integrated');
    expect(git(remote, 'show', 'main:notes.txt').split('\n')).toEqual(['ONE', ...lines.slice(1, 6), 'SEVEN']);
    expect(git(remote, 'log', '-1', '--format=%s', 'main')).toBe('baton: integrate b');
    const conflicted = await completer(c).complete();
    expect(conflicted).toEqual({ kind: 'conflict', into: 'origin/main', files: ['notes.txt'], changedBy: [{ taskId: 'b', attempt: 1 }] });
    // The worktree is back at the tip, clean: the next attempt starts from there.
    expect(git(c.dir, 'rev-parse', 'HEAD')).toBe(git(remote, 'rev-parse', 'main'));
    expect(git(c.dir, 'status', '--porcelain')).toBe('');
    for (const site of [a, b, c]) await site.release();
    await one.sites.close();
    await two.sites.close();
  });

  it('gives a released worktree to the next task clean and at the tip, and removes its worktrees when closed', async () => {
    const { remote, clones } = remoteWithClones(1);
    const { sites, branch } = await sitesOf(clones[0]!);
    const a = await branch.open(task('a'));
    writeFileSync(path.join(a.dir, 'a.txt'), 'a\n');
    expect((await completer(a).complete()).kind).toBe('integrated');
    writeFileSync(path.join(a.dir, 'leftover.log'), 'x\n');
    await a.release();
    const next = await branch.open(task('next'));
    expect(next.dir).toBe(a.dir);
    expect(existsSync(path.join(next.dir, 'leftover.log'))).toBe(false);
    expect(git(next.dir, 'rev-parse', 'HEAD')).toBe(git(remote, 'rev-parse', 'main'));
    await next.release();
    await sites.close();
    expect(existsSync(next.dir)).toBe(false);
    expect(git(clones[0]!, 'worktree', 'list').split('\n')).toHaveLength(1);
  });

  it('refuses by default a symlink out of the repository and a file over the size limit, naming them; flags them when told to', async () => {
    const { remote, clones } = remoteWithClones(2);
    const refusing = await sitesOf(clones[0]!, { maxFileBytes: 1_000, onViolation: 'refuse' });
    const a = await refusing.branch.open(task('a'));
    symlinkSync('/etc/hostname', path.join(a.dir, 'host-link'));
    symlinkSync('README.md', path.join(a.dir, 'readme-link'));
    writeFileSync(path.join(a.dir, 'big.bin'), Buffer.alloc(5_000));
    const refused = await completer(a).complete();
    expect(refused).toMatchObject({ kind: 'refused', final: false });
    const error = refused.kind === 'refused' ? refused.error : '';
    expect(error).toContain('host-link: a symlink to /etc/hostname, outside the repository');
    expect(error).toContain('big.bin: 5000 bytes, over the 1000 bytes limit (commitPolicy.maxFileBytes)');
    expect(error).not.toContain('readme-link');
    expect(git(remote, 'ls-tree', '--name-only', 'main')).toBe('README.md');
    await a.release();
    await refusing.sites.close();

    const flagging = await sitesOf(clones[1]!, { maxFileBytes: 1_000, onViolation: 'flag' });
    const b = await flagging.branch.open(task('b'));
    symlinkSync('../../outside', path.join(b.dir, 'escape'));
    const flagged = await completer(b).complete();
    expect(flagged).toMatchObject({ kind: 'integrated', flagged: ['escape: a symlink to ../../outside, outside the repository'] });
    expect(git(remote, 'ls-tree', '--name-only', 'main').split('\n').sort()).toEqual(['README.md', 'escape']);
    await b.release();
    await flagging.sites.close();
  });

  it('fails to open a task when the remote is gone, naming the remote; an integration then fails its attempt with the reason', async () => {
    const { remote, clones } = remoteWithClones(1);
    const { sites, branch } = await sitesOf(clones[0]!);
    const a = await branch.open(task('a'));
    writeFileSync(path.join(a.dir, 'a.txt'), 'a\n');
    rmSync(remote, { recursive: true, force: true });
    const outcome = await completer(a).complete();
    expect(outcome).toMatchObject({ kind: 'refused', final: false });
    expect(outcome.kind === 'refused' ? outcome.error : '').toMatch(
      /^could not read origin\/main: git fetch .* failed in .*: fatal: '.*remote.*' does not appear to be a git repository/,
    );
    await a.release();
    await expect(branch.open(task('b'))).rejects.toThrow(/does not appear to be a git repository/);
    await sites.close();
  });

  it('refuses a clone without the remote a job names, and a folder outside any repository, naming it', async () => {
    const { clones } = remoteWithClones(1);
    const { sites } = await sitesOf(clones[0]!);
    await expect(sites.forBranch('upstream', 'main')).rejects.toThrow(`${clones[0]} has no remote "upstream"`);
    await sites.close();
    const outside = mkdtempSync(path.join(tmpdir(), 'baton-not-a-repo-'));
    try {
      await expect(createRemoteSites({ repoDir: outside, lock: inProcessLock(), logger: silentLogger })).rejects.toMatchObject({
        code: 'INPUT_INVALID',
        message: expect.stringContaining(`${outside} is not in a git repository`),
      });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("keeps the remote's reason when its pre-receive hook refuses the push, and does not run the agent again for it", async () => {
    const { remote, clones } = remoteWithClones(1);
    const hook = path.join(remote, 'hooks', 'pre-receive');
    writeFileSync(
      hook,
      '#!/bin/sh\necho "POLICY: commits to main need a ticket id (ABC-123)" >&2\necho "see https://wiki/policy" >&2\nexit 1\n',
    );
    chmodSync(hook, 0o755);
    const { sites, branch } = await sitesOf(clones[0]!);
    const log = path.join(base, `policy-${Date.now()}.jsonl`);
    const ledger = new MemoryLedger();
    const plan = parsePlan(
      'tasks:\n  - id: policy\n    instructions: Write a draft.\n    acceptance_criteria:\n      - description: draft\n        check: test -f draft.txt\n',
      'plan.yaml',
    );
    const report = await runPlan(plan, {
      ledger,
      providers: [agent('fixer', 'fixer.mjs', { AGENT_LOG: log })],
      workspaceDir: clones[0]!,
      sites: branch,
      maxRetries: 3,
      logger: silentLogger,
    });
    await sites.close();
    // One agent run: the refusal is the remote's, which no attempt of the agent's can change.
    expect(readAgentLog(log)).toHaveLength(1);
    expect(report.tasks[0]?.status).toBe('blocked');
    const reason = (await ledger.getTask('policy'))?.blockReason ?? '';
    expect(reason).toContain('pre-receive hook declined');
    expect(reason).toContain('POLICY: commits to main need a ticket id (ABC-123)');
    expect(reason).toContain('see https://wiki/policy');
    expect(reason).toContain("the task's result is kept on branch baton/policy");
    const [dispatch] = await ledger.lastDispatches('policy', 1);
    expect(dispatch?.validationErrors[0]).toContain('POLICY: commits to main need a ticket id (ABC-123)');
    expect(git(remote, 'ls-tree', '--name-only', 'main')).toBe('README.md');
  });

  it('is final too when the remote refuses writes (git daemon: read-only), with its words', async () => {
    const { remote, clones } = remoteWithClones(1);
    const daemon = await readOnlyDaemon(path.dirname(remote));
    try {
      git(clones[0]!, 'remote', 'set-url', 'origin', `${daemon.url}/${path.basename(remote)}`);
      const { sites, branch } = await sitesOf(clones[0]!);
      const a = await branch.open(task('a'));
      writeFileSync(path.join(a.dir, 'a.txt'), 'a\n');
      const outcome = await completer(a).complete();
      expect(outcome).toMatchObject({ kind: 'refused', final: true });
      expect(outcome.kind === 'refused' ? outcome.error : '').toContain('access denied or repository not exported');
      await a.release();
      await sites.close();
    } finally {
      await daemon.stop();
    }
  });

  it('stops integrating after a force-push removed results from the branch, saying so, and pushes nothing', async () => {
    const { remote, clones } = remoteWithClones(3);
    const start = git(remote, 'rev-parse', 'main');
    const one = await sitesOf(clones[0]!);
    const a = await one.branch.open(task('a'));
    writeFileSync(path.join(a.dir, 'a.txt'), 'a\n');
    expect((await completer(a).complete()).kind).toBe('integrated');
    const b = await one.branch.open(task('b'));
    writeFileSync(path.join(b.dir, 'b.txt'), 'b\n');
    // Another worker, started from the run's first tip (the job's startTip), never saw a's result.
    const two = await createRemoteSites({ repoDir: clones[1]!, lock: inProcessLock(), logger: silentLogger });
    const late = await (await two.forBranch('origin', 'main', start)).open(task('late'));
    writeFileSync(path.join(late.dir, 'late.txt'), 'late\n');
    // Someone force-pushes the branch back to an unrelated commit.
    const outsider = clones[2]!;
    git(outsider, 'checkout', '-q', '--orphan', 'fresh');
    git(outsider, 'commit', '-q', '--allow-empty', '-m', 'history rewritten');
    git(outsider, 'push', '-q', '--force', 'origin', 'fresh:main');
    const forced = git(remote, 'rev-parse', 'main');
    for (const site of [b, late]) {
      const outcome = await completer(site).complete();
      expect(outcome).toMatchObject({ kind: 'refused', final: true });
      expect(outcome.kind === 'refused' ? outcome.error : '').toContain(
        'origin/main was rewritten during this run (a force-push or git reset)',
      );
      await site.release();
    }
    expect(git(remote, 'rev-parse', 'main')).toBe(forced);
    await one.sites.close();
    await two.close();
  });

  it('adopts the result a worker pushed before it died (baton/<task> on the branch) instead of running the agent again', async () => {
    const { remote, clones } = remoteWithClones(2);
    const ledger = new MemoryLedger();
    const plan = parsePlan(
      'tasks:\n  - id: landed\n    instructions: Write a draft.\n    acceptance_criteria:\n      - description: draft\n        check: test -f draft.txt\n',
      'plan.yaml',
    );
    // The worker that died: its attempt 1 is still `running` in the ledger, its push landed.
    await ledger.upsertTask(toNewTask(plan.tasks[0]!));
    await ledger.appendNextAttempt({
      taskId: 'landed',
      provider: 'fixer',
      status: 'running',
      claimedBy: 'worker:dead',
      startedAt: Date.now(),
    });
    const dead = await sitesOf(clones[0]!);
    const site = await dead.branch.open(task('landed'));
    writeFileSync(path.join(site.dir, 'draft.txt'), 'the dead worker wrote this\n');
    expect((await completer(site).complete(1)).kind).toBe('integrated');
    await site.release();
    await dead.sites.close();
    const pushed = git(remote, 'rev-parse', 'baton/landed');
    const next = await sitesOf(clones[1]!);
    const log = path.join(base, `landed-${Date.now()}.jsonl`);
    const report = await runPlan(plan, {
      ledger,
      providers: [agent('fixer', 'fixer.mjs', { AGENT_LOG: log })],
      workspaceDir: clones[1]!,
      sites: next.branch,
      logger: silentLogger,
    });
    await next.sites.close();
    expect(readAgentLog(log)).toEqual([]);
    expect(report.tasks[0]?.status).toBe('completed');
    expect((await ledger.getTask('landed'))?.resultSummary).toBe(
      `Integrated into origin/main (commit ${pushed.slice(0, 12)}) by attempt 1, whose run stopped before recording it; adopted without running the agent again`,
    );
    expect(report.tasks[0]?.attempts).toMatchObject([{ attempt: 1, outcome: 'completed' }]);
    expect(git(remote, 'rev-parse', 'main')).toBe(pushed);
  });
});
