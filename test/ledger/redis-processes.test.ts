/**
 * Many processes on one Redis ledger: concurrent appends lose nothing, and racing claimers never
 * hold one task at the same time. Uses the shared child-process workers in test/ledger/workers/,
 * started together through their --barrier so the writes really interleave.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { deleteNamespace, describeWithRedis, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';

const WORKERS = path.join(import.meta.dirname, 'workers');

interface WorkerRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts every worker, waits until all print "ready", then says "go" to all at once. */
async function runTogether(scripts: { script: string; args: string[] }[], env: Record<string, string>): Promise<WorkerRun[]> {
  const children = scripts.map(({ script, args }) =>
    spawn(process.execPath, ['--import', 'tsx', path.join(WORKERS, script), ...args, '--barrier'], {
      env: { ...process.env, ...env },
    }),
  );
  const runs = children.map(collect);
  await Promise.all(children.map(readyOf));
  for (const child of children) child.stdin.end('go\n');
  return Promise.all(runs);
}

function readyOf(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('ready\n')) {
        child.stdout.off('data', onData);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready`)));
  });
}

function collect(child: ChildProcessWithoutNullStreams): Promise<WorkerRun> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Pairs of `enter A` / `leave A` must follow each other: an `enter` after an `enter` is an overlap. */
function countOverlaps(events: string[]): number {
  let holder: string | undefined;
  let overlaps = 0;
  for (const line of events) {
    const [what, owner] = line.split(' ');
    if (what === 'enter') {
      if (holder !== undefined) overlaps += 1;
      holder = owner;
    } else if (what === 'leave' && holder === owner) {
      holder = undefined;
    }
  }
  return overlaps;
}

await describeWithRedis('redis ledger shared by processes', () => {
  const namespaces: string[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-redis-procs-'));
  afterAll(async () => {
    for (const ns of namespaces) await deleteNamespace(ns);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps all 20,000 dispatches of two processes appending 10,000 each', async () => {
    const namespace = uniqueNamespace('append');
    namespaces.push(namespace);
    const runs = await runTogether(
      [
        { script: 'append.ts', args: [REDIS_TEST_URL, '10000', '--task', 'task-a'] },
        { script: 'append.ts', args: [REDIS_TEST_URL, '10000', '--task', 'task-b'] },
      ],
      { BATON_NAMESPACE: namespace },
    );
    for (const run of runs) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('done 10000');
    }
    const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
    try {
      expect(await ledger.countDispatches()).toBe(20_000);
      expect(await ledger.lastDispatches('task-a', 20_000)).toHaveLength(10_000);
      const seqs = new Set<number>();
      let cursor: string | undefined;
      do {
        const page = await ledger.listDispatches({ limit: 1_000, cursor });
        for (const d of page.items) seqs.add(d.seq);
        cursor = page.nextCursor;
      } while (cursor);
      // Every append got its own seq, and none was skipped.
      expect(seqs.size).toBe(20_000);
      expect(Math.max(...seqs)).toBe(20_000);
    } finally {
      await ledger.close();
    }
  }, 120_000);

  it('never lets two processes hold one task at once over 1,000 racing claims each', async () => {
    const namespace = uniqueNamespace('claim');
    namespaces.push(namespace);
    const events = path.join(dir, 'claim-events.log');
    const runs = await runTogether(
      ['alpha', 'beta'].map((owner) => ({ script: 'claim.ts', args: [REDIS_TEST_URL, 'contested', owner, '1000', events] })),
      { BATON_NAMESPACE: namespace },
    );
    const summaries = runs.map((run) => {
      expect(run.code).toBe(0);
      return JSON.parse(run.stdout.trim().split('\n').at(-1) as string) as { holds: number; refused: number; lostLease: number };
    });
    const lines = readFileSync(events, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4_000);
    expect(countOverlaps(lines)).toBe(0);
    expect(summaries.map((s) => s.lostLease)).toEqual([0, 0]);
    // Both really contended: each was refused at least once while the other held the task.
    expect(summaries.every((s) => s.refused > 0)).toBe(true);
  }, 120_000);

  it('detects overlaps when the lease protection is switched off (lease 0), so the check above means something', async () => {
    const namespace = uniqueNamespace('claim0');
    namespaces.push(namespace);
    const events = path.join(dir, 'claim0-events.log');
    await runTogether(
      ['alpha', 'beta'].map((owner) => ({
        script: 'claim.ts',
        args: [REDIS_TEST_URL, 'contested', owner, '300', events, '--lease', '0'],
      })),
      { BATON_NAMESPACE: namespace },
    );
    expect(countOverlaps(readFileSync(events, 'utf8').trim().split('\n'))).toBeGreaterThan(0);
  }, 120_000);
});
