import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STALE_JOB_MS } from '../../src/hooks/index.js';
import { openSqliteDatabase } from '../../src/ledger/sqlite/index.js';
import { runHookBin, startHookBin } from './helpers/hook-bin.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';
import { claude } from './helpers/payloads.js';

/** The job files of handed-off folds (src/hooks/hook-jobs.ts). */
function jobs(ws: HookWorkspace): string[] {
  const dir = path.join(ws.dir, '.baton', 'hooks', 'jobs');
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** Waits for a condition by looking again every few milliseconds (an event on disk, not a time window). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A Claude session whose turn ran a failing `npm test`, then SQLite's write lock taken by the test. */
async function failedTurnWithLedgerLocked(ws: HookWorkspace, s: { session: string; cwd: string }) {
  await ws.hook('claude', 'session-start', claude.sessionStart(s));
  await ws.hook('claude', 'prompt', claude.prompt(s, 'run the tests'));
  await ws.hook('claude', 'post-tool', claude.bashFailure(s, 'npm test', 1, 'FAIL test/a.test.js'));
  const holder = openSqliteDatabase(path.join(ws.dir, '.baton/agent.db'));
  holder.exec('BEGIN IMMEDIATE');
  return holder;
}

describe('Stop and SessionEnd hand their fold to a detached child: the client waits one node start', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('the stop hook exits while the ledger is locked (its fold cannot have run); the child folds the turn once the lock is free, and the next session start sees it', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'handed-off', cwd: ws.dir };
    // SQLite's write lock held by the test: a fold in the hook's own process could not finish.
    const holder = await failedTurnWithLedgerLocked(ws, s);
    let stop;
    try {
      stop = await runHookBin(['hook', 'stop', '--client', 'claude'], JSON.stringify(claude.stop(s)), ws.dir);
      expect(jobs(ws)).toHaveLength(1);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(stop).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const end = await runHookBin(['hook', 'session-end', '--client', 'claude'], JSON.stringify(claude.sessionEnd(s)), ws.dir);
    expect(end).toMatchObject({ code: 0, stdout: '' });
    // The next session's start waits for the handed-off jobs before it reads the ledger.
    const next = await ws.hook('claude', 'session-start', claude.sessionStart({ session: 'next', cwd: ws.dir }));
    expect(jobs(ws)).toEqual([]);
    expect(next).toContain('npm test');
    const record = await ws.session('claude-handed-off');
    expect(record?.status).toBe('ended');
    expect(record?.data.failures.map((f) => [f.command, f.exitCode])).toEqual([['npm test', 1]]);
    await until(() => jobs(ws).length === 0);
  });

  it.each([
    {
      args: ['sessions', '--json'],
      check: (stdout: string) =>
        expect((JSON.parse(stdout) as { sessions: { id: string }[] }).sessions.map((r) => r.id)).toContain('claude-just-ended'),
    },
    { args: ['export'], check: (stdout: string) => expect(stdout).toContain('FAIL test/a.test.js') },
  ])(
    'baton $args.0 run the moment the client exits waits for the handed-off fold, says so on stderr, and shows the turn it folded',
    async ({ args, check }) => {
      ws = makeHookWorkspace();
      const s = { session: 'just-ended', cwd: ws.dir };
      // The write lock held by the test keeps the handed-off fold from finishing while the command starts.
      const holder = await failedTurnWithLedgerLocked(ws, s);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        holder.exec('ROLLBACK');
        holder.close();
      };
      try {
        const stop = await runHookBin(['hook', 'stop', '--client', 'claude'], JSON.stringify(claude.stop(s)), ws.dir);
        expect(stop.code).toBe(0);
        expect(jobs(ws)).toHaveLength(1);
        let stderr = '';
        let exited = false;
        const command = startHookBin(args, '', ws.dir);
        command.child.stderr?.on('data', (d) => (stderr += d));
        command.child.on('exit', () => (exited = true));
        // An event, not a time window: the command's own line that it waits, or its exit (then the assertion fails).
        await until(() => stderr.includes('waiting for') || exited);
        expect(stderr).toContain('waiting for 1 hook fold of the last agent session');
        release();
        const shown = await command.done;
        expect(shown.code, shown.stdout + shown.stderr).toBe(0);
        check(shown.stdout);
        const record = await ws.session('claude-just-ended');
        expect(record?.data.failures.map((f) => [f.command, f.exitCode])).toEqual([['npm test', 1]]);
        expect(jobs(ws)).toEqual([]);
      } finally {
        release();
      }
    },
  );

  it('--job runs only a job file under .baton/hooks/jobs/: any other file is left as it is, and nothing is folded', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'elsewhere', cwd: ws.dir };
    const job = { client: 'claude', event: 'session-end', stdin: JSON.stringify(claude.sessionEnd(s)), cwd: ws.dir, at: Date.now() };
    const file = path.join(ws.dir, 'notes.json');
    writeFileSync(file, JSON.stringify(job));
    const run = await runHookBin(['hook', 'session-end', '--client', 'claude', '--job', file], '', ws.dir);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(job);
    expect(await ws.session('claude-elsewhere')).toBeUndefined();
  });

  it('a job whose child died (its file older than STALE_JOB_MS) is run again by the next session start: the session is closed', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'orphaned', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(s));
    await ws.hook('claude', 'prompt', claude.prompt(s, 'run the tests'));
    await ws.hook('claude', 'post-tool', claude.bashFailure(s, 'npm test', 1, 'FAIL test/a.test.js'));
    await ws.hook('claude', 'stop', claude.stop(s));
    // A SessionEnd handed off to a child that died before it ran (killed with the machine's sleep, say).
    const dir = path.join(ws.dir, '.baton', 'hooks', 'jobs');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `1-1-session-end.json`);
    const job = { client: 'claude', event: 'session-end', stdin: JSON.stringify(claude.sessionEnd(s)), cwd: ws.dir, at: Date.now() };
    writeFileSync(file, JSON.stringify(job));
    const old = (Date.now() - STALE_JOB_MS - 5_000) / 1000;
    utimesSync(file, old, old);
    expect((await ws.session('claude-orphaned'))?.status).not.toBe('ended');
    await ws.hook('claude', 'session-start', claude.sessionStart({ session: 'later', cwd: ws.dir }));
    await until(() => jobs(ws).length === 0);
    const record = await ws.session('claude-orphaned');
    expect(record?.status).toBe('ended');
    expect(record?.data.endReason).toBe('other');
  });
});
