import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.js';
import type { CliIO } from '../../src/cli/index.js';
import { isBatonError } from '../../src/errors/index.js';
import { type LedgerLine, openLedger } from '../../src/ledger/index.js';
import { buildRetryContext } from '../../src/precontext/index.js';
import { runBaton } from '../helpers/cli.js';
import { hasRedisServerBinary, startRedisServer, type TestRedisServer } from '../helpers/redis.js';

const ROOT = path.resolve(__dirname, '../..');
const BATON = path.join(ROOT, 'bin/baton.js');
const CLAUDE_NOT_LOGGED_IN =
  '{"type":"result","subtype":"success","is_error":true,"api_error_status":null,"duration_ms":835,"num_turns":1,"result":"Not logged in · Please run /login","session_id":"12b522c1","total_cost_usd":0,"usage":{"input_tokens":0,"output_tokens":0},"modelUsage":{}}';

function project(
  providers: Record<string, unknown>,
  plan = 'tasks:\n  - id: job\n    instructions: Produce out.txt.\n    retry_policy: { max_retries: 2 }\n',
) {
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-msg-'));
  writeFileSync(path.join(dir, 'plan.yaml'), plan);
  writeFileSync(path.join(dir, 'baton.config.json'), JSON.stringify({ providers, priority: Object.keys(providers) }));
  return dir;
}

async function baton(dir: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), cwd: dir, env: { BATON_LEASE_MS: '1500' }, isTTY: false };
  const code = await runCli(['node', 'baton', ...args], io);
  return { code, out: out.join(''), err: err.join('') };
}

const RUN = ['run', 'plan.yaml', '--config', 'baton.config.json', '--ledger', 'sqlite:state.db'];

async function blockReason(dir: string): Promise<string | undefined> {
  const ledger = await openLedger({ spec: 'sqlite:state.db', cwd: dir });
  try {
    return (await ledger.getTask('job'))?.blockReason;
  } finally {
    await ledger.close();
  }
}

describe('a blocked task says what happened to each provider', () => {
  it('after two timeouts: "timeout 2 times", not "All providers circuit-broken", while the breaker is closed', async () => {
    const dir = project({ agent: { type: 'command', command: ['sleep', '30'], timeoutMs: 200 } });
    expect((await baton(dir, RUN)).code).toBe(1);
    expect(await blockReason(dir)).toBe(
      "Failed after 2 attempts: agent: timeout 2 times; last: agent did not finish within Baton's time limit",
    );
    const status = await baton(dir, ['status', '--ledger', 'sqlite:state.db']);
    expect(status.out).toContain('Circuit breakers: all closed');
  }, 30_000);

  it('a missing program of a command provider tells to set "command", not "binary"', async () => {
    const dir = project({ agent: { type: 'command', command: ['/nonexistent/my-agnt'] } });
    expect((await baton(dir, RUN)).code).toBe(1);
    const reason = await blockReason(dir);
    expect(reason).toContain(
      'agent: command "/nonexistent/my-agnt" not found (install it, or set "command" of provider "agent" in baton.config.json to a program that exists)',
    );
    expect(reason).not.toContain('"binary"');
    expect(reason).not.toContain('circuit-broken');
    expect(reason).toMatch(
      // Attempt 2 found the provider skipped on this host: no agent ran it, so it is not counted.
      /^No agent could run attempt 2 \(1 attempt ran\): agent: skipped on this host until \S+Z \(agent: command /,
    );
  });
});

describe('claude printing "Not logged in · Please run /login"', () => {
  it("is auth_failed and opens that provider's breaker (a stand-in claude binary printing the recorded output)", async () => {
    const fake = path.join(mkdtempSync(path.join(tmpdir(), 'baton-fake-claude-')), 'claude');
    writeFileSync(fake, `#!/bin/sh\necho '${CLAUDE_NOT_LOGGED_IN}'\nexit 1\n`);
    chmodSync(fake, 0o755);
    const dir = project(
      { claude: { type: 'claude', binary: fake } },
      'tasks:\n  - id: job\n    instructions: Hi.\n    retry_policy: { max_retries: 1 }\n',
    );
    expect((await baton(dir, [...RUN, '--json'])).code).toBe(1);
    const ledger = await openLedger({ spec: 'sqlite:state.db', cwd: dir });
    try {
      const [dispatch] = await ledger.lastDispatches('job', 1);
      expect(dispatch).toMatchObject({ outcome: 'auth_failed', result: 'Not logged in · Please run /login' });
      expect(await ledger.getBreaker('claude')).toMatchObject({ state: 'open', reason: 'Not logged in · Please run /login' });
    } finally {
      await ledger.close();
    }
  });
});

describe('claim contention', () => {
  async function heldBy(owner: string) {
    const dir = project({ agent: { type: 'command', command: ['sh', '-c', 'echo done > out.txt'] } });
    const ledger = await openLedger({ spec: 'sqlite:state.db', cwd: dir });
    await ledger.upsertTask({ id: 'job', title: 'job', instructions: 'Produce out.txt.' });
    expect((await ledger.claimTask('job', owner, 400)).ok).toBe(true);
    await ledger.close();
    return baton(dir, RUN);
  }

  it('held by a live run says so, without guessing at a crash', async () => {
    const owner = `${hostname()}:${process.pid}:abc123`;
    const run = await heldBy(owner);
    expect(run.out).toMatch(
      new RegExp(
        `job: held by another live run \\(${owner}, lease until \\S+Z\\); taking other work, and this task if that run stops renewing its lease`,
      ),
    );
    expect(run.out).not.toContain('crash');
  });

  it('held by a run whose process is gone says it crashed', async () => {
    const dead = spawnSync('true').pid;
    const owner = `${hostname()}:${dead}:abc123`;
    const run = await heldBy(owner);
    expect(run.out).toMatch(
      new RegExp(
        `job: claimed by ${owner}, a run that is no longer running \\(it crashed\\); taking other work, and this task when its lease lapses at \\S+Z`,
      ),
    );
  });
});

describe('the retry context of a re-run', () => {
  it('does not say the previous attempt ended before validation when it passed', () => {
    const passed = {
      attempt: 1,
      provider: 'agent',
      status: 'completed',
      outcome: 'ok',
      result: 'Wrote out.txt',
      filesCreated: ['out.txt'],
      filesUpdated: [],
      validationErrors: [],
    };
    const text = buildRetryContext({ attempt: 2, dispatches: [passed] });
    expect(text).toContain('- previous attempt (#1) recorded no validation failure; the task is being run again\n');
    expect(text).not.toContain('ended before validation');
  });
});

describe.skipIf(!hasRedisServerBinary())('Redis out of memory', () => {
  let server: TestRedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is reported as out of memory with maxmemory advice, not "unavailable"', async () => {
    const admin = new Redis(server.url);
    try {
      // A throwaway server at its limit: every write that needs memory is refused (OOM).
      await admin.config('SET', 'maxmemory', '1');
      const dir = mkdtempSync(path.join(tmpdir(), 'baton-oom-'));
      const run = await runBaton(['task', 'add', 't1', '--title', 'T', '--ledger', server.url], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /Redis ledger at redis:\/\/127\.0\.0\.1:\d+\/0 is out of memory \(used memory is above its maxmemory\) during createTask; the write was refused\. Raise maxmemory/,
      );
      expect(run.stderr).not.toContain('unavailable');
    } finally {
      await admin.config('SET', 'maxmemory', '0');
      admin.disconnect();
    }
  });
});

describe('SQLite storage failures name the file and say what to do', () => {
  function tasks(count: number): LedgerLine[] {
    return Array.from({ length: count }, (_, i): LedgerLine => ({
      kind: 'task',
      record: {
        id: `t${i}`,
        title: 'T',
        instructions: 'x'.repeat(500),
        intent: '',
        acceptanceCriteria: [],
        status: 'pending',
        priority: 0,
        dependsOn: [],
        options: {},
        links: {},
        createdAt: i,
        updatedAt: i,
      },
    }));
  }

  it('"database or disk is full": LEDGER_FULL naming the file, nothing imported', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'baton-full-'));
    const file = path.join(dir, 'agent.db');
    const ledger = await openLedger({ spec: `sqlite:${file}`, cwd: dir });
    try {
      await ledger.importLines(tasks(10));
      // The disk "fills up": SQLite's own page limit on this connection gives the real SQLITE_FULL.
      const db = (ledger as unknown as { db: Database.Database }).db;
      db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
      const error = await ledger.importLines(tasks(3_000)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isBatonError(error, 'LEDGER_FULL')).toBe(true);
      expect((error as Error).message).toBe(
        `Ledger ${file}: the disk is full ("database or disk is full"); the write was rolled back and the ledger is unchanged. Free space on the disk holding ${dir} (or move the ledger with baton export / baton import), then run the command again.`,
      );
      expect((await ledger.countTasksByStatus()).pending).toBe(10);
    } finally {
      await ledger.close();
    }
  });

  it('"database disk image is malformed": names the file and how to recover', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'baton-malformed-'));
    const file = path.join(dir, 'agent.db');
    const ledger = await openLedger({ spec: `sqlite:${file}`, cwd: dir });
    await ledger.importLines(tasks(3_000));
    await ledger.close();
    // A page corrupted in the middle of the file (the header stays valid).
    const { openSync, writeSync, closeSync, statSync } = await import('node:fs');
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096 * 3, 0xff), 0, 4096 * 3, 4096 * Math.floor(statSync(file).size / 4096 / 2));
    closeSync(fd);
    const run = await runBaton(['status', '--ledger', `sqlite:${file}`], { cwd: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `Ledger ${file} is damaged ("database disk image is malformed"); nothing more was written to it. Copy it aside first, then recover what is readable (sqlite3 ${file} ".recover" | sqlite3 recovered.db)`,
    );
  });

  // Permissions only bind a non-root user: the CLI runs as "nobody" through setpriv when the tests run as root.
  // "nobody" must also reach the CLI: a checkout under a private folder (mktemp -d is mode 700) cannot be run by it.
  const canDropPrivileges =
    process.getuid?.() === 0 &&
    spawnSync('setpriv', [
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      process.execPath,
      '-e',
      `require('node:fs').accessSync(${JSON.stringify(BATON)})`,
    ]).status === 0;
  if (!canDropPrivileges) console.log(`[skip] the read-only ledger test needs root, setpriv, and ${BATON} readable by "nobody"`);
  it.skipIf(!canDropPrivileges)('"attempt to write a readonly database": names the file; baton status still works read-only', async () => {
    const base = mkdtempSync(path.join(tmpdir(), 'baton-ro-'));
    const folder = path.join(base, 'ledger');
    mkdirSync(folder);
    const file = path.join(folder, 'agent.db');
    const ledger = await openLedger({ spec: `sqlite:${file}`, cwd: base });
    await ledger.upsertTask({ id: 'job', title: 'Job' });
    await ledger.close();
    chmodSync(base, 0o755);
    chmodSync(folder, 0o555);
    chmodSync(file, 0o444);
    const asNobody = (args: string[]) =>
      spawnSync(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BATON, ...args, '--ledger', `sqlite:${file}`],
        {
          cwd: base,
          encoding: 'utf8',
        },
      );
    const status = asNobody(['status']);
    expect(status.stderr).toBe('');
    expect(status.status).toBe(0);
    expect(status.stdout).toContain('Tasks: 1 (pending 1');
    const add = asNobody(['task', 'add', 'x', '--title', 'X']);
    expect(add.status).toBe(1);
    expect(add.stderr).toContain(
      `Ledger ${file} is read-only for this process ("attempt to write a readonly database"): make the file and its folder ${folder} writable by this user`,
    );
  });
});
