/**
 * Redis restarts mid-run: a throwaway redis-server with append-only persistence (never the shared
 * one) holds the ledger and the queue; it is killed while workers run tasks and started again on the
 * same port and data 4 s later. Writes wait for the reconnection (the ledger's client queues them,
 * up to its command timeout), so an agent that finished during the outage keeps its result: every
 * agent runs exactly once; each worker logs the outage in one line, and one when Redis is back.
 * Real BullMQ, real worker processes in their own clones, a bare remote.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { hasRedisServerBinary, startRedisServer, type TestRedisServer } from '../helpers/redis.js';
import { type BatonRun, makeProject, startBaton, startsPerTask } from './helpers.js';

const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const c of cleanups) c();
});

function waitForReady(run: BatonRun): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`worker not ready: ${seen}`)), 60_000);
    run.child.stdout?.on('data', (c: Buffer) => {
      seen += c.toString();
      if (seen.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

describe.skipIf(!hasRedisServerBinary())('a Redis restart (append-only) during a queued run', () => {
  it('loses nothing and runs every agent exactly once through a 4 s outage, and the run completes', async () => {
    const data = mkdtempSync(path.join(tmpdir(), 'baton-aof-'));
    cleanups.push(() => rmSync(data, { recursive: true, force: true }));
    let server: TestRedisServer = await startRedisServer({ appendOnlyDir: data });
    cleanups.push(() => void server.stop());
    const ids = Array.from({ length: 12 }, (_, i) => `r${String(i + 1).padStart(2, '0')}`);
    const project = makeProject(
      ids.map((id) => ({ id })),
      { AGENT_SLEEP_MS: '1500' },
    );
    cleanups.push(() => rmSync(project.dir, { recursive: true, force: true }));
    const base = mkdtempSync(path.join(tmpdir(), 'baton-remote-'));
    cleanups.push(() => rmSync(base, { recursive: true, force: true }));
    const remote = path.join(base, 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
    project.git('remote', 'add', 'origin', remote);
    project.git('push', '-q', 'origin', 'main');
    const env = { BATON_NAMESPACE: 'restart', BATON_REDIS_TIMEOUT_MS: '5000' };
    const workers = ['a', 'b'].map((name) => {
      const clone = path.join(base, name);
      execFileSync('git', ['clone', '-q', remote, clone]);
      execFileSync('git', ['config', 'user.email', 'w@example.com'], { cwd: clone });
      execFileSync('git', ['config', 'user.name', name], { cwd: clone });
      copyFileSync(path.join(project.dir, 'baton.config.json'), path.join(clone, 'baton.config.json'));
      return startBaton(['worker', '--ledger', server.url, '--config', 'baton.config.json'], { cwd: clone, env });
    });
    await Promise.all(workers.map(waitForReady));
    const producer = startBaton(['run', 'plan.json', '--config', 'baton.config.json', '--ledger', server.url, '--queue', '--json'], {
      cwd: project.dir,
      env,
    });
    try {
      const deadline = Date.now() + 60_000;
      while (project.starts().length < 2 && Date.now() < deadline) await sleep(50);
      await server.stop();
      await sleep(4_000);
      server = await startRedisServer({ appendOnlyDir: data, port: server.port });
      const done = await producer.done;
      expect(done.code, `${done.stderr}\n${done.stdout}`).toBe(0);
      const report = JSON.parse(done.stdout) as { tasks: { id: string; status: string }[] };
      expect(report.tasks.map((t) => t.status)).toEqual(ids.map(() => 'completed'));
      const starts = project.starts();
      // Exactly once: no agent that finished during the outage was recorded interrupted and run again.
      expect(startsPerTask(starts)).toEqual(new Map(ids.map((id) => [id, 1])));
      // Nothing lost: the ledger holds every agent run as one dispatch, each ended ok.
      const ledger = await openLedger({ spec: server.url, namespace: 'restart' });
      expect(await ledger.countDispatches()).toBe(ids.length);
      for (const id of ids) expect((await ledger.lastDispatches(id, 5)).map((d) => d.outcome)).toEqual(['ok']);
      await ledger.close();
    } finally {
      for (const w of workers) w.child.kill('SIGTERM');
      await Promise.all(workers.map((w) => w.done));
    }
    // One line per outage, one when Redis is back: no stream of errors, no "worker died" that did not.
    for (const w of workers) {
      const { stderr } = await w.done;
      const lines = stderr.split('\n').filter(Boolean);
      const count = (pattern: RegExp) => lines.filter((l) => pattern.test(l)).length;
      expect(count(/Redis unreachable: the worker waits for it/), stderr).toBe(1);
      expect(count(/Redis is back/), stderr).toBe(1);
      expect(count(/queue worker error/), stderr).toBe(0);
      expect(count(/its worker died or hung/), stderr).toBe(0);
    }
  }, 180_000);
});
