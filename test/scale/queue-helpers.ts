/**
 * Plumbing of the queue scale tests: a project pushed to a local bare remote, worker clones of it,
 * `baton run --queue` and `baton worker` as real processes, and waiting for what they print.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deleteNamespace, REDIS_TEST_URL, withRawRedis } from '../helpers/redis.js';
import { type BatonRun, type Project, startBaton } from './helpers.js';

export interface Report {
  tasks: { id: string; status: string; attempts: { attempt: number; outcome: string; injected_context: string; claimed_by?: string }[] }[];
}

export const cleanups: (() => void)[] = [];

/** Removes the tests' ledger namespaces, their queues' keys, and every folder in `cleanups`. */
export async function cleanUp(namespaces: readonly string[]): Promise<void> {
  for (const ns of namespaces) {
    await deleteNamespace(ns);
    await withRawRedis(async (client) => {
      const keys = await client.keys(`{baton-${ns}}:*`);
      if (keys.length > 0) await client.unlink(...keys);
    });
  }
  for (const cleanup of cleanups) cleanup();
}
/** A path in a fresh folder: the stand-in agent waits until the test writes it (AGENT_WAIT_FILE). */
export function releaseFile(): string {
  const release = path.join(mkdtempSync(path.join(tmpdir(), 'baton-release-')), 'go');
  cleanups.push(() => rmSync(path.dirname(release), { recursive: true, force: true }));
  return release;
}

export const QUEUE_ENV = {
  BATON_QUEUE_LOCK_MS: '2000',
  BATON_QUEUE_STALLED_MS: '1000',
  BATON_LEASE_MS: '1500',
  // While every breaker is open the queue is paused this long, then they are read again (default 5 s).
  BATON_QUEUE_BREAKER_RECHECK_MS: '200',
};

/** The project pushed to a bare remote, and `n` worker clones with the same config. */
export function withRemote(project: Project, n: number): { remote: string; clones: string[] } {
  const base = mkdtempSync(path.join(tmpdir(), 'baton-remote-'));
  cleanups.push(() => rmSync(base, { recursive: true, force: true }));
  const remote = path.join(base, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  project.git('remote', 'add', 'origin', remote);
  project.git('push', '-q', 'origin', 'main');
  const clones = Array.from({ length: n }, (_, i) => {
    const dir = path.join(base, `worker-${i + 1}`);
    execFileSync('git', ['clone', '-q', remote, dir]);
    for (const [k, v] of [
      ['user.email', 'w@example.com'],
      ['user.name', `Worker ${i + 1}`],
    ])
      execFileSync('git', ['config', k as string, v as string], { cwd: dir });
    copyFileSync(path.join(project.dir, 'baton.config.json'), path.join(dir, 'baton.config.json'));
    return dir;
  });
  return { remote, clones };
}

/** `baton run plan.json --queue --json` in the project: the producer's side. */
export function startProducer(project: Project, namespace: string): BatonRun {
  return startBaton(['run', 'plan.json', '--config', 'baton.config.json', '--ledger', REDIS_TEST_URL, '--queue', '--json'], {
    cwd: project.dir,
    env: { BATON_NAMESPACE: namespace, ...QUEUE_ENV },
  });
}

export const readyLines = new Map<BatonRun, string>();

export async function startWorkers(clones: readonly string[], namespace: string, extra: string[] = []): Promise<BatonRun[]> {
  const workers = clones.map((cwd) =>
    startBaton(['worker', '--ledger', REDIS_TEST_URL, '--config', 'baton.config.json', ...extra], {
      cwd,
      env: { BATON_NAMESPACE: namespace, ...QUEUE_ENV },
    }),
  );
  await Promise.all(workers.map(async (w) => readyLines.set(w, await waitForOutput(w, /ready/, 60_000))));
  return workers;
}

export function waitForOutput(run: BatonRun, pattern: RegExp, timeoutMs: number): Promise<string> {
  return waitForText(run.child.stdout, pattern, timeoutMs);
}

/** Resolves with what `stream` printed once it matches `pattern` (the event), or fails after `timeoutMs`. */
export function waitForText(stream: NodeJS.ReadableStream | null, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms: ${seen}`)), timeoutMs);
    const onData = (c: Buffer) => {
      seen += c.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        stream?.off('data', onData);
        resolve(seen);
      }
    };
    stream?.on('data', onData);
  });
}
