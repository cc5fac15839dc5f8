/**
 * The hooks' faults of issue 34 (items 2, 9, 10, 15, 18), each through the hook's own entry (the
 * in-process runHook, or the real `baton hook` process where the process is what matters).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBaton } from '../helpers/cli.js';
import { runHookBin, startHookBin } from './helpers/hook-bin.js';
import { openSqliteDatabase } from '../../src/ledger/sqlite/index.js';
import { claude, codex, gemini } from './helpers/payloads.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

function logLines(ws: HookWorkspace): Array<{ event: string; problem: string; [key: string]: unknown }> {
  const file = path.join(ws.dir, '.baton/hooks/hooks.log');
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { event: string; problem: string })
    : [];
}

describe('the hooks’ faults (issue 34)', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('keeps the journals of two sessions whose ids reduce to the same file name apart (a/b and a_b)', async () => {
    ws = makeHookWorkspace();
    const slash = { session: 'a/b', cwd: ws.dir };
    const underscore = { session: 'a_b', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(slash));
    await ws.hook('claude', 'session-start', claude.sessionStart(underscore));
    await ws.hook('claude', 'post-tool', claude.bashFailure(slash, 'make one', 1, 'one failed'));
    await ws.hook('claude', 'post-tool', claude.bashFailure(underscore, 'make two', 2, 'two failed'));
    await ws.hook('claude', 'stop', claude.stop(slash));
    await ws.hook('claude', 'stop', claude.stop(underscore));
    expect((await ws.session('claude-a/b'))?.data.failures.map((f) => f.command)).toEqual(['make one']);
    expect((await ws.session('claude-a_b'))?.data.failures.map((f) => f.command)).toEqual(['make two']);
  });

  it('logs a hook run with an event name it does not know, and hooks status names the command that has it', async () => {
    ws = makeHookWorkspace();
    const run = await runHookBin(
      ['hook', 'SessionStart', '--client', 'claude'],
      JSON.stringify(claude.sessionStart({ session: 's', cwd: ws.dir })),
      ws.dir,
    );
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(logLines(ws)).toEqual([
      expect.objectContaining({
        event: 'SessionStart',
        client: 'claude',
        problem: expect.stringContaining('unknown event "SessionStart"'),
      }),
    ]);

    mkdirSync(path.join(ws.dir, '.claude'));
    const command = 'npx baton hook SessionStart --client claude';
    writeFileSync(
      path.join(ws.dir, '.claude/settings.json'),
      JSON.stringify({ hooks: { SessionStart: [{ matcher: '', hooks: [{ type: 'command', command }] }] } }),
    );
    const status = await runBaton(['hooks', 'status', '--client', 'claude'], { cwd: ws.dir, env: { HOME: path.join(ws.dir, '.home') } });
    expect(status.stdout).toContain('SessionStart runs `baton hook SessionStart`: not an event Baton knows');
    expect(status.stdout).toContain('unknown event \\"SessionStart\\"');
  });

  it('reads no FIFO as a transcript: Gemini’s pre-compact and Codex’s stop answer, fold the turn and leave no lock', async () => {
    ws = makeHookWorkspace();
    const fifo = path.join(ws.dir, '.baton', 'transcript.fifo');
    execFileSync('mkfifo', [fifo]);
    const g = { session: 'gemini-fifo', cwd: ws.dir };
    const preCompress = await runHookBin(
      ['hook', 'pre-compact', '--client', 'gemini'],
      JSON.stringify(gemini.preCompress(g, 'auto', fifo)),
      ws.dir,
    );
    expect(preCompress).toMatchObject({ code: 0, stdout: '', stderr: '' });

    const c = { session: 'codex-fifo', cwd: ws.dir };
    await ws.hook('codex', 'session-start', codex.sessionStart(c, 'startup', fifo));
    await ws.hook('codex', 'post-tool', codex.bash(c, 'ls /missing', 'ls: cannot access', 'call_1', fifo));
    const stop = await runHookBin(['hook', 'stop', '--client', 'codex'], JSON.stringify(codex.stop(c, fifo)), ws.dir);
    expect(stop).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // The fold runs in a detached child (hook-jobs.ts), which removes its job file when done.
    await until(
      () => !existsSync(path.join(ws.dir, '.baton/hooks/jobs')) || readdirSync(path.join(ws.dir, '.baton/hooks/jobs')).length === 0,
    );
    expect(logLines(ws)).toEqual([]);
    expect((await ws.session('codex-codex-fifo'))?.data.toolCalls).toBe(1);
    expect(readdirSync(path.join(ws.dir, '.baton/hooks/sessions')).filter((file) => file.endsWith('.lock'))).toEqual([]);
  });

  it('keeps a tool call whose hook input passes 8 MiB: a 4.5 MB Write (sent twice) and a failure with 9 MB of output', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'huge', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(s));
    const content = 'line of generated data\n'.repeat(200_000);
    ws.write('big.txt', content);
    const write = await runHookBin(
      ['hook', 'post-tool', '--client', 'claude'],
      JSON.stringify(claude.write(s, path.join(ws.dir, 'big.txt'), content)),
      ws.dir,
    );
    expect(write).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const output = `${'progress ....\n'.repeat(700_000)}Error: the last line says why`;
    const failure = await runHookBin(
      ['hook', 'post-tool', '--client', 'claude'],
      JSON.stringify(claude.bashFailure(s, 'npm run build', 2, output)),
      ws.dir,
    );
    expect(failure).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await ws.hook('claude', 'stop', claude.stop(s));
    const record = await ws.session('claude-huge');
    expect(record?.data).toMatchObject({ toolCalls: 2, filesCreated: ['big.txt'] });
    expect(record?.data.failures).toEqual([
      expect.objectContaining({ command: 'npm run build', exitCode: 2, error: expect.stringMatching(/Error: the last line says why$/) }),
    ]);
    expect(logLines(ws)).toEqual([]);
  });

  /** Waits for a condition by looking again every few milliseconds (an event on disk, not a time window). */
  async function until(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  /**
   * A Stop hook killed in the middle of its fold (the client's timeout, Ctrl-C), at the worst
   * moment: it holds the fold lock and has taken the journal, and its ledger write has not
   * landed. Git's fsmonitor hook (which `git status` calls) tells the test the fold is measuring,
   * with the ledger open, and holds it there; the test then takes SQLite's write lock, lets git
   * go on, and kills the hook once its lock and taken journal are on disk (its write waiting).
   */
  async function killStopMidFold(session: { session: string; cwd: string }): Promise<void> {
    const signal = path.join(ws.dir, '.baton/fsmonitor.signal');
    const release = path.join(ws.dir, '.baton/fsmonitor.release');
    const script = path.join(ws.dir, '.baton/fsmonitor.sh');
    writeFileSync(script, `#!/bin/sh\ntouch '${signal}'\nwhile [ ! -f '${release}' ]; do sleep 0.01; done\nexit 1\n`, { mode: 0o755 });
    execFileSync('git', ['config', 'core.fsmonitor', script], { cwd: ws.dir });
    const holder = openSqliteDatabase(path.join(ws.dir, '.baton/agent.db'));
    // The fold in the hook's own process (BATON_HOOK_WAIT=1), as a detached child runs it (hook-jobs.ts): the test kills it.
    const stop = startHookBin(['hook', 'stop', '--client', 'claude'], JSON.stringify(claude.stop(session)), ws.dir, {
      BATON_HOOK_WAIT: '1',
    });
    let exited = false;
    void stop.done.then(() => (exited = true));
    const sessions = path.join(ws.dir, '.baton/hooks/sessions');
    const has = (part: string) => readdirSync(sessions).some((name) => name.includes(part));
    try {
      await until(() => existsSync(signal) || exited);
      holder.exec('BEGIN IMMEDIATE');
      writeFileSync(release, '');
      await until(() => (has('.folding.') && has('.lock')) || exited);
      expect(exited).toBe(false);
      stop.child.kill('SIGKILL');
      await stop.done;
    } finally {
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
      execFileSync('git', ['config', '--unset', 'core.fsmonitor'], { cwd: ws.dir });
    }
  }

  it('a fold killed midway is resumed by the session’s end, which closes the record with the turn’s tool calls', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'killed-fold', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(s));
    await ws.hook('claude', 'prompt', claude.prompt(s, 'run the tests'));
    await ws.hook('claude', 'post-tool', claude.bashFailure(s, 'npm test', 1, 'FAIL test/a.test.js'));
    await killStopMidFold(s);
    await ws.hook('claude', 'session-end', claude.sessionEnd(s));
    const record = await ws.session('claude-killed-fold');
    expect(record?.status).toBe('ended');
    expect(record?.data).toMatchObject({ toolCalls: 1, turns: 1, endReason: 'other', lastPrompt: 'run the tests' });
    expect(record?.data.failures.map((f) => [f.command, f.exitCode])).toEqual([['npm test', 1]]);
    expect(logLines(ws).map((line) => line.problem)).toEqual([expect.stringContaining('a fold of this session died midway')]);
    expect(
      readdirSync(path.join(ws.dir, '.baton/hooks/sessions')).filter((name) => name.endsWith('.lock') || name.includes('.folding.')),
    ).toEqual([]);
  });

  it('a fold killed midway is resumed by the next hook of another session in the workspace', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'killed-alone', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(s));
    await ws.hook('claude', 'post-tool', claude.bashFailure(s, 'make deploy', 2, 'no credentials'));
    await killStopMidFold(s);
    const context = ws.context(await ws.hook('claude', 'session-start', claude.sessionStart({ session: 'next-one', cwd: ws.dir })));
    expect((await ws.session('claude-killed-alone'))?.data.toolCalls).toBe(1);
    expect(context).toContain('`make deploy` exited 2');
  });
});
