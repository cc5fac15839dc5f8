import { spawn } from 'node:child_process';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runHook } from '../../src/hooks/index.js';
import { openSqliteDatabase } from '../../src/ledger/sqlite/index.js';
import { claude, gemini } from './helpers/payloads.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

const BIN = fileURLToPath(new URL('../../bin/baton.js', import.meta.url));

/** Runs the real `baton hook` process as a client does: JSON on stdin, exit code and output read. */
function runBin(
  args: string[],
  input: string,
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

function logLines(ws: HookWorkspace): Array<{ event: string; problem: string }> {
  const file = path.join(ws.dir, '.baton/hooks/hooks.log');
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { event: string; problem: string })
    : [];
}

describe('a hook never breaks its client', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('exits 0 with nothing on stdout or stderr when its input is not JSON, and logs why', async () => {
    ws = makeHookWorkspace();
    const run = await runBin(['hook', 'session-start', '--client', 'claude'], '{not json', ws.dir);
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(logLines(ws)[0]).toMatchObject({ event: 'session-start' });
    expect(logLines(ws)[0]?.problem).toMatch(/JSON/);
  });

  it('exits 0 silently for an unknown event or client when a client (not a person) runs it', async () => {
    ws = makeHookWorkspace();
    expect(await runBin(['hook', 'after-everything', '--client', 'claude'], '{}', ws.dir)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await runBin(['hook', 'stop', '--client', 'cursor'], '{}', ws.dir)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('answers nothing and logs the reason when the ledger is not a database', async () => {
    ws = makeHookWorkspace();
    writeFileSync(path.join(ws.dir, '.baton/agent.db'), 'this is not sqlite');
    const s = { session: 'broken', cwd: ws.dir };
    const run = await runBin(['hook', 'session-start', '--client', 'claude'], JSON.stringify(claude.sessionStart(s)), ws.dir);
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await ws.hook('claude', 'stop', claude.stop(s))).toBe('');
    expect(logLines(ws).map((line) => line.event)).toEqual(['session-start', 'stop']);
    expect(logLines(ws)[0]?.problem).toMatch(/not a SQLite database|not a Baton ledger|agent\.db/i);
  });

  it('answers nothing within its deadline when another process holds the ledger locked', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'locked', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(s));
    ws.write('a.txt', 'a\n');
    await ws.hook('claude', 'post-tool', claude.write(s, path.join(ws.dir, 'a.txt'), 'a\n'));
    const holder = openSqliteDatabase(path.join(ws.dir, '.baton/agent.db'));
    holder.exec('BEGIN EXCLUSIVE');
    try {
      // In the hook's own process (BATON_HOOK_WAIT=1), as the detached child of a handed-off SessionEnd runs it.
      const run = await runBin(['hook', 'session-end', '--client', 'claude'], JSON.stringify(claude.sessionEnd(s)), ws.dir, {
        BATON_HOOK_WAIT: '1',
      });
      expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(logLines(ws).at(-1)?.event).toBe('session-end');
    // Nothing was lost: the journal still holds the turn, and the next fold records it.
    await ws.hook('claude', 'stop', claude.stop(s));
    expect((await ws.turns('claude-locked')).map((d) => d.filesCreated)).toEqual([['a.txt']]);
  });

  it('gives up after its deadline and prints nothing, whatever the ledger is doing', async () => {
    ws = makeHookWorkspace();
    // A "Redis" that accepts connections and never answers: every ledger call hangs.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const answer = await runHook({
        client: 'claude',
        event: 'session-start',
        stdin: JSON.stringify(claude.sessionStart({ session: 'slow', cwd: ws.dir })),
        cwd: ws.dir,
        env: { BATON_LEDGER: `redis://127.0.0.1:${port}/0` },
        deadlineMs: 300,
      });
      expect(answer.stdout).toBe('');
      expect(logLines(ws).at(-1)?.problem).toBe('gave up after 300 ms');
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('does nothing at all in a project without .baton/ (user-level hooks fire everywhere)', async () => {
    ws = makeHookWorkspace({ baton: false });
    const s = { session: 'elsewhere', cwd: ws.dir };
    const run = await runBin(['hook', 'session-start', '--client', 'gemini'], JSON.stringify(gemini.sessionStart(s)), ws.dir);
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    await ws.hook('gemini', 'post-tool', gemini.shell(s, 'false', 1, ''));
    expect(readdirSync(ws.dir).sort()).toEqual(['.git', '.gitignore', 'README.md']);
  });

  it('the per-tool hook never touches the ledger: it works while the ledger is unusable', async () => {
    ws = makeHookWorkspace();
    mkdirSync(path.join(ws.dir, '.baton/agent.db'));
    const s = { session: 'tools', cwd: ws.dir };
    const run = await runBin(['hook', 'post-tool', '--client', 'claude'], JSON.stringify(claude.bashFailure(s, 'make', 2, 'boom')), ws.dir);
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(path.join(ws.dir, '.baton/hooks/sessions/claude-tools.jsonl'), 'utf8')).toContain('"exitCode":2');
    expect(logLines(ws)).toEqual([]);
  });
});
