import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CollectRequest, CollectResult } from '../../src/spawner/collect-output.js';
import { CommandStartError, runCommand, SpawnHelper, type SupervisedResult, type SuperviseRequest } from '../../src/spawner/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The helper runs as compiled JavaScript: `npm test` builds dist/ before the tests.
const ENTRY = pathToFileURL(path.join(ROOT, 'dist/spawner/spawn-helper-main.js'));

function request(file: string, args: string[], extra: Partial<CollectRequest> = {}): CollectRequest {
  return { file, args, cwd: ROOT, env: process.env, maxBytes: 1 << 20, maxStderr: 4000, ...extra };
}

function supervised(command: string, extra: Partial<SuperviseRequest> = {}): SuperviseRequest {
  return {
    file: 'sh',
    args: ['-c', command],
    cwd: ROOT,
    env: process.env,
    input: '',
    timeoutMs: 10_000,
    killGraceMs: 1_000,
    outputCapBytes: 1 << 20,
    ...extra,
  };
}

/** A supervised run through the helper, with the pid it reported at the start. */
function superviseThrough(
  helper: SpawnHelper,
  req: SuperviseRequest,
  signal?: AbortSignal,
): { result: Promise<SupervisedResult>; pid: Promise<number> } {
  let reportPid: (pid: number) => void = () => {};
  const pid = new Promise<number>((resolve) => (reportPid = resolve));
  const result = new Promise<SupervisedResult>((resolve, reject) => {
    if (!helper.supervise(req, { onSpawn: reportPid, ...(signal ? { signal } : {}) }, resolve)) reject(new Error('not taken'));
  });
  return { result, pid };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, ms = 5_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (condition()) return true;
  return condition();
}

function through(helper: SpawnHelper, req: CollectRequest): Promise<CollectResult | { message: string; code?: string }> {
  return new Promise((resolve, reject) => {
    if (!helper.take(req, resolve)) reject(new Error('the helper did not take the command'));
  });
}

describe('runCommand (short commands, their whole output)', () => {
  it('returns stdout, stderr and the exit code, and cuts stdout at maxBytes', async () => {
    const ok = await runCommand(request('sh', ['-c', 'printf "out\\n"; printf "err" >&2; exit 3']));
    expect({ code: ok.code, stdout: ok.stdout.toString(), stderr: ok.stderr, truncated: ok.truncated }).toEqual({
      code: 3,
      stdout: 'out\n',
      stderr: 'err',
      truncated: false,
    });
    const cut = await runCommand(request('sh', ['-c', 'yes baton | head -c 100000'], { maxBytes: 1000 }));
    expect(cut.truncated).toBe(true);
    expect(cut.stdout.length).toBe(1000);
  });

  it('lowers a command’s CPU priority when asked (niceness), and its own children inherit it', async () => {
    // `nice` prints its niceness; the sleep lets the priority be set before it starts.
    const low = await runCommand(request('sh', ['-c', 'sleep 0.2; nice'], { niceness: 19 }));
    expect(low.stdout.toString().trim()).toBe('19');
    const normal = await runCommand(request('sh', ['-c', 'sleep 0.2; nice']));
    expect(Number(normal.stdout.toString().trim())).toBeLessThan(19);
  });

  it('names a command that cannot start (no hang)', async () => {
    const error = await runCommand(request('baton-no-such-binary', [])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandStartError);
    expect((error as CommandStartError).code).toBe('ENOENT');
  });
});

describe.skipIf(!existsSync(fileURLToPath(ENTRY)))('the spawn helper process', () => {
  it('runs commands in its own small process and returns the same results as a direct spawn', async () => {
    const helper = new SpawnHelper(ENTRY, 0);
    const parent = await through(helper, request('sh', ['-c', 'echo $PPID']));
    expect(helper.active).toBe(true);
    // The command's parent is the helper, not this process.
    expect('stdout' in parent && Number(parent.stdout.toString())).toBe(helper.pid);
    expect(helper.pid).not.toBe(process.pid);
    const bytes = await through(helper, request('sh', ['-c', 'printf "\\000\\377abc"; printf oops >&2; exit 4']));
    expect(bytes).toMatchObject({ code: 4, stderr: 'oops', truncated: false });
    expect('stdout' in bytes && [...bytes.stdout]).toEqual([0, 255, 97, 98, 99]);
    expect('stdout' in bytes && Buffer.isBuffer(bytes.stdout)).toBe(true);
    const cut = await through(helper, request('sh', ['-c', 'yes baton | head -c 100000'], { maxBytes: 10 }));
    expect(cut).toMatchObject({ truncated: true });
    expect(await through(helper, request('baton-no-such-binary', []))).toMatchObject({ code: 'ENOENT' });
    // Several at once, answered to the right caller.
    const many = await Promise.all(Array.from({ length: 20 }, (_, i) => through(helper, request('sh', ['-c', `echo ${i}`]))));
    expect(many.map((r) => ('stdout' in r ? r.stdout.toString().trim() : r.message))).toEqual(Array.from({ length: 20 }, (_, i) => `${i}`));
    helper.stop();
  });

  it('adds what a request gives to its own environment (its parent’s), or uses that alone', async () => {
    const helper = new SpawnHelper(ENTRY, 0);
    const show = 'echo "$HOME|$BATON_TEST_EXTRA"';
    const added = await through(helper, request('sh', ['-c', show], { env: { BATON_TEST_EXTRA: 'x' } }));
    expect('stdout' in added && added.stdout.toString().trim()).toBe(`${process.env.HOME}|x`);
    const alone = await through(
      helper,
      request('sh', ['-c', show], { env: { PATH: process.env.PATH, BATON_TEST_EXTRA: 'y' }, inheritEnv: false }),
    );
    expect('stdout' in alone && alone.stdout.toString().trim()).toBe('|y');
    const agent = await superviseThrough(helper, supervised(show, { env: { BATON_TEST_EXTRA: 'z' } })).result;
    expect(agent.stdout.trim()).toBe(`${process.env.HOME}|z`);
    // The same when the caller spawns it itself.
    const direct = await runCommand(request('sh', ['-c', show], { env: { BATON_TEST_EXTRA: 'd' } }));
    expect(direct.stdout.toString().trim()).toBe(`${process.env.HOME}|d`);
    helper.stop();
  });

  it('takes commands only after the first few: short commands never start it', async () => {
    const helper = new SpawnHelper(ENTRY, 2);
    expect(helper.take(request('true', []), () => {})).toBe(false);
    expect(helper.take(request('true', []), () => {})).toBe(false);
    expect(helper.active).toBe(false);
    expect(await through(helper, request('true', []))).toMatchObject({ code: 0 });
    expect(helper.active).toBe(true);
    helper.stop();
  });

  it('fails the commands in flight when it dies, then leaves every command to a direct spawn', async () => {
    const helper = new SpawnHelper(ENTRY, 0);
    await through(helper, request('true', []));
    const inFlight = through(helper, request('sleep', ['5']));
    process.kill(helper.pid ?? 0, 'SIGKILL');
    expect(await inFlight).toMatchObject({ message: 'the spawn helper exited' });
    expect(helper.take(request('true', []), () => {})).toBe(false);
    expect(helper.active).toBe(false);
  });

  it('does not keep its parent alive: a process that ran many commands exits at once', () => {
    const script = `import { runCommand } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'dist/spawner/index.js')).href)};
for (let i = 0; i < 40; i++) await runCommand({ file: 'true', args: [], cwd: '.', env: process.env, maxBytes: 1000, maxStderr: 100 });
console.log('done');`;
    const started = Date.now();
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(out.trim()).toBe('done');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('runs an agent or a check under supervision there: stdin, capped output, its pid at the start, the exit code', async () => {
    const helper = new SpawnHelper(ENTRY, 0);
    const run = superviseThrough(
      helper,
      supervised('echo pid=$$; cat; yes x | head -c 5000; echo err >&2; exit 3', { input: 'from stdin\n', outputCapBytes: 100 }),
    );
    const [result, pid] = await Promise.all([run.result, run.pid]);
    expect(pid).not.toBe(helper.pid);
    expect(result).toMatchObject({ exitCode: 3, stderr: 'err\n', stdoutTruncated: true, timedOut: false, aborted: false });
    // Head and tail kept: the head names the process the helper reported, and the stdin it got.
    expect(result.stdout.startsWith(`pid=${pid}\nfrom stdin\n`)).toBe(true);
    expect(result.stdout).toMatch(/bytes of output omitted/);
    helper.stop();
  });

  it('stops a supervised process group there on its timeout, and on the caller’s abort', async () => {
    const helper = new SpawnHelper(ENTRY, 0);
    // A grandchild in the background: the whole group must go.
    const slow = superviseThrough(helper, supervised('sleep 30 & echo $! > /dev/stderr; wait', { timeoutMs: 300 }));
    const timedOut = await slow.result;
    expect(timedOut.timedOut).toBe(true);
    expect(await until(() => !alive(Number(timedOut.stderr.trim())))).toBe(true);
    const stop = new AbortController();
    const aborted = superviseThrough(helper, supervised('sleep 30'), stop.signal);
    const pid = await aborted.pid;
    stop.abort();
    expect(await aborted.result).toMatchObject({ aborted: true, signal: 'SIGTERM' });
    expect(alive(pid)).toBe(false);
    helper.stop();
  });

  it('stops a supervised group itself when its helper is killed', async () => {
    const helper = new SpawnHelper(ENTRY, 0);
    const run = superviseThrough(helper, supervised('sleep 30'));
    const pid = await run.pid;
    // SIGKILL: the helper cannot stop the group; the parent, told of the exit, does.
    process.kill(helper.pid ?? 0, 'SIGKILL');
    expect(await run.result).toMatchObject({ spawnError: { code: 'EHELPER', message: 'the spawn helper exited' } });
    expect(await until(() => !alive(pid))).toBe(true);
  });

  it('ends the processes it supervises when its parent goes, and tells the caller what was lost', async () => {
    const helper = new SpawnHelper(ENTRY, 0);
    const run = superviseThrough(helper, supervised('sleep 30'));
    const pid = await run.pid;
    // The parent's side of the channel closes as when the parent dies: the helper stops the group.
    helper.stop();
    expect(await run.result).toMatchObject({ spawnError: { code: 'EHELPER' } });
    expect(await until(() => !alive(pid))).toBe(true);
  });
});
