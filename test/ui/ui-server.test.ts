import { rm } from 'node:fs/promises';
import { get } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runUi } from '../../src/cli/commands/ui/action.js';
import { isBatonError } from '../../src/errors/index.js';
import { type Ledger, MemoryLedger, openLedger } from '../../src/ledger/index.js';
import { startUiServer, type UiServer } from '../../src/ui/index.js';
import { runBaton, tempDir } from '../helpers/cli.js';
import { deleteNamespace, describeWithRedis, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';

const open: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  while (open.length) await open.pop()?.close();
});

async function serve(ledger: Ledger, options: { token?: string; pollMs?: number } = {}): Promise<UiServer> {
  const ui = await startUiServer({ ledger, port: 0, pollMs: options.pollMs ?? 50, token: options.token });
  open.push(ui);
  return ui;
}

/** Reads server-sent events until `event` arrives (or the timeout). */
function waitForEvent(
  url: string,
  event: string,
  headers: Record<string, string> = {},
  timeoutMs = 5000,
): Promise<{ status: number; events: string[] }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { headers }, (res) => {
      const events: string[] = [];
      if (res.statusCode !== 200) {
        res.resume();
        resolve({ status: res.statusCode ?? 0, events });
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        for (const [, name] of chunk.matchAll(/^event: (\S+)$/gm)) events.push(name as string);
        if (events.includes(event)) {
          req.destroy();
          resolve({ status: 200, events });
        }
      });
    });
    req.on('error', () => undefined);
    setTimeout(() => {
      req.destroy();
      reject(new Error(`no "${event}" event within ${timeoutMs} ms`));
    }, timeoutMs).unref();
  });
}

describe('baton ui server: access', () => {
  it('requires the token: 401 without it, 200 with a bearer header or the cookie set by ?token=', async () => {
    const ui = await serve(new MemoryLedger(), { token: 's3cret-token' });
    const bare = await fetch(ui.url);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toMatch(/Bearer/);
    expect(await bare.text()).not.toContain('Tasks</h1>');
    expect((await fetch(ui.url, { headers: { authorization: 'Bearer wrong-token!' } })).status).toBe(401);
    expect((await fetch(`${ui.url}events`)).status).toBe(401);

    const bearer = await fetch(ui.url, { headers: { authorization: 'Bearer s3cret-token' } });
    expect(bearer.status).toBe(200);
    expect(await bearer.text()).toContain('<h1>Tasks</h1>');

    const link = await fetch(`${ui.url}providers?token=s3cret-token`, { redirect: 'manual' });
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe('/providers');
    const cookie = link.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^baton_ui_token=s3cret-token; HttpOnly; SameSite=Strict/);
    const withCookie = await fetch(`${ui.url}providers`, { headers: { cookie: cookie.split(';')[0] as string } });
    expect(withCookie.status).toBe(200);
    expect(await withCookie.text()).toContain('<h1>Providers</h1>');
  });

  it('refuses to listen beyond loopback without a token (library and CLI, exit 2)', async () => {
    const attempt = startUiServer({ ledger: new MemoryLedger(), host: '0.0.0.0', port: 0 });
    await expect(attempt).rejects.toSatisfy((e: unknown) => isBatonError(e, 'INPUT_INVALID') && /--token/.test((e as Error).message));
    const { dir, cleanup } = await tempDir();
    open.push({ close: cleanup });
    const run = await runBaton(['ui', '--ledger', 'memory', '--host', '0.0.0.0', '--port', '0'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--host 0\.0\.0\.0 is reachable from other machines/);
  });

  it('rejects a foreign Host header (DNS rebinding) and any method but GET/HEAD', async () => {
    const ui = await serve(new MemoryLedger());
    const status = await new Promise<number>((resolve) => {
      get(ui.url, { headers: { host: `evil.example:${ui.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
    });
    expect(status).toBe(421);
    const post = await fetch(ui.url, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('serves a strict content security policy: no inline script or style is allowed', async () => {
    const ui = await serve(new MemoryLedger());
    const res = await fetch(ui.url);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'; style-src 'self'/);
    const page = await res.text();
    expect(page).not.toMatch(/<script>|style="/);
  });
});

describe('baton ui server: what it shows', () => {
  it('masks secrets and escapes markup from the ledger', async () => {
    const ledger = new MemoryLedger();
    const key = ['ghp', '_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('');
    await ledger.createTask({ id: 'leak', title: '<script>alert(1)</script>', instructions: `use token ${key}` });
    await ledger.appendDispatch({
      taskId: 'leak',
      attempt: 1,
      provider: 'p',
      status: 'failed',
      outcome: 'agent_error',
      injectedContext: `--- RETRY CONTEXT ---\nGITHUB_TOKEN=${key}\n--- END CONTEXT ---`,
    });
    const ui = await serve(ledger);
    const list = await (await fetch(ui.url)).text();
    expect(list).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(list).not.toContain('<script>alert(1)');
    const task = await (await fetch(`${ui.url}tasks/leak`)).text();
    expect(task).not.toContain(key);
    expect(task).toMatch(/REDACTED/);
  });

  it('answers 404 pages for unknown tasks, panels and paths', async () => {
    const ui = await serve(new MemoryLedger());
    for (const p of ['tasks/nope', 'panels/nope', 'nothing-here']) {
      const res = await fetch(`${ui.url}${p}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toMatch(/not found/i);
    }
  });

  it('sends a change event when the memory ledger is written (polled fingerprint)', async () => {
    const ledger = new MemoryLedger();
    const ui = await serve(ledger);
    const waiting = waitForEvent(`${ui.url}events`, 'change');
    await new Promise((r) => setTimeout(r, 200));
    await ledger.createTask({ id: 'late', title: 'Late' });
    expect((await waiting).events).toEqual(['hello', 'change']);
  });
});

describe('baton ui command', () => {
  it('prints its address as JSON, serves the page, and exits 0 when stopped', async () => {
    const { dir, cleanup } = await tempDir();
    open.push({ close: cleanup });
    const seed = await openLedger({ spec: `sqlite:${path.join(dir, 'agent.db')}` });
    await seed.createTask({ id: 't1', title: 'First' });
    await seed.close();
    let out = '';
    let stop!: () => void;
    const stopped = new Promise<void>((r) => {
      stop = r;
    });
    const io = {
      stdout: (s: string) => {
        out += s;
      },
      stderr: () => undefined,
      cwd: dir,
      env: process.env,
      isTTY: false,
    };
    const serving = runUi(io, { ledger: 'sqlite:agent.db', port: '0', json: true }, stopped);
    await expect.poll(() => out).toContain('"url"');
    const info = JSON.parse(out) as { url: string; backend: string; token_required: boolean };
    expect(info).toMatchObject({ backend: 'sqlite', token_required: false });
    expect(await (await fetch(info.url)).text()).toContain('<code>t1</code>');
    stop();
    expect(await serving).toBe(0);
  });

  it("is what `baton demo --keep` points to at its end, and shows the demo's injected context", async () => {
    const { dir, cleanup } = await tempDir();
    open.push({ close: cleanup });
    const demo = await runBaton(['demo', '--keep'], { cwd: dir });
    expect(demo.code).toBe(0);
    const spec = /baton ui --ledger (sqlite:\S+)\s*$/.exec(demo.stdout)?.[1];
    expect(spec).toBeDefined();
    const workspace = /example plan in (\S+)/.exec(demo.stdout)?.[1] as string;
    open.push({ close: () => rm(path.dirname(workspace), { recursive: true, force: true }) });
    const ledger = await openLedger({ spec, create: false });
    open.push(ledger);
    const ui = await serve(ledger);
    const switched = (await ledger.recentDispatches(50)).find((d) => d.contextType === 'circuit_breaker');
    expect(switched).toBeDefined();
    const page = await (await fetch(`${ui.url}tasks/${encodeURIComponent(switched?.taskId ?? '')}`)).text();
    expect(page).toContain('--- PROVIDER SWITCH CONTEXT ---');
  });

  it('never creates a ledger: a missing SQLite file is exit 2 naming it', async () => {
    const { dir, cleanup } = await tempDir();
    open.push({ close: cleanup });
    const run = await runBaton(['ui', '--ledger', 'sqlite:missing.db', '--port', '0'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('missing.db');
  });
});

await describeWithRedis('baton ui over Redis', () => {
  it('renders tasks from a Redis ledger and sends a change event on a new dispatch', async () => {
    const namespace = uniqueNamespace('ui');
    const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
    open.push({ close: async () => void (await deleteNamespace(namespace)) });
    open.push(ledger);
    await ledger.createTask({ id: 'r1', title: 'Over Redis' });
    const ui = await serve(ledger);
    expect(await (await fetch(ui.url)).text()).toContain('Over Redis');
    const waiting = waitForEvent(`${ui.url}events`, 'change');
    await new Promise((r) => setTimeout(r, 200));
    await ledger.appendDispatch({ taskId: 'r1', attempt: 1, provider: 'fixer', status: 'running' });
    expect((await waiting).events).toContain('change');
  });
});
