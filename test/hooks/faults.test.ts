/**
 * The hooks' faults of issue 34 (items 2, 9, 10, 15, 18), each through the hook's own entry (the
 * in-process runHook, or the real `baton hook` process where the process is what matters).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBaton } from '../helpers/cli.js';
import { runHookBin } from './helpers/hook-bin.js';
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
});
