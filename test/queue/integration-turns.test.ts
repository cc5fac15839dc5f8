/**
 * Turns at integrating (src/queue/integration-turns.ts) on the real test Redis, and two worker
 * clones of one real bare remote taking them (createRemoteSites): one integration at a time, and
 * the worker whose turn it is takes along what the other offered meanwhile.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRemoteSites, type OfferedCommit, type SharedTip } from '../../src/isolation/index.js';
import { type Dispatch, materializeTask } from '../../src/ledger/index.js';
import { silentLogger } from '../../src/observability/index.js';
import { QUEUE_NAME, queueConnection, queuePrefix, redisTurns } from '../../src/queue/index.js';
import type { SupervisorEvent } from '../../src/supervisor/index.js';
import { describeWithRedis, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';

const base = mkdtempSync(path.join(tmpdir(), 'baton-turns-'));
let connection: Redis;
const prefixes: string[] = [];

beforeAll(() => {
  connection = queueConnection(REDIS_TEST_URL);
});
afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await connection.keys(`${prefix}:*`);
    if (keys.length > 0) await connection.unlink(...keys);
  }
  connection.disconnect();
  rmSync(base, { recursive: true, force: true });
});

function freshPrefix(): string {
  const prefix = queuePrefix(uniqueNamespace('turns'));
  prefixes.push(prefix);
  return prefix;
}

/** A bare remote (its pushes to main counted by a hook) and a way to make worker clones of it. */
function remoteWithClones(name: string): { remote: string; clone: (worker: string) => string; pushes: string } {
  const remote = path.join(base, `${name}.git`);
  const seed = path.join(base, `${name}-seed`);
  execFileSync('git', ['init', '-q', '-b', 'main', seed]);
  writeFileSync(path.join(seed, 'README.md'), 'turns\n');
  execFileSync('git', ['add', '-A'], { cwd: seed });
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-qm', 'seed'], { cwd: seed });
  execFileSync('git', ['clone', '-q', '--bare', seed, remote]);
  const pushes = path.join(base, `${name}-pushes.log`);
  writeFileSync(path.join(remote, 'hooks', 'post-receive'), `#!/bin/sh\ngrep -q ' refs/heads/main$' && echo main >> ${pushes}\nexit 0\n`, {
    mode: 0o755,
  });
  const clone = (worker: string) => {
    const dir = path.join(base, `${name}-${worker}`);
    execFileSync('git', ['clone', '-q', remote, dir]);
    execFileSync('git', ['config', 'user.email', `${worker}@example.com`], { cwd: dir });
    execFileSync('git', ['config', 'user.name', worker], { cwd: dir });
    return dir;
  };
  return { remote, clone, pushes };
}

const commit = (taskId: string, attempt = 1): OfferedCommit => ({ taskId, attempt, sha: 'f'.repeat(40), checks: [] });

await describeWithRedis('integration turns (Redis)', () => {
  it('gives the turn to one worker at a time, and to the next when it ends', async () => {
    const prefix = freshPrefix();
    const one = redisTurns({ connection, prefix, owner: 'w1', logger: silentLogger });
    const two = redisTurns({ connection, prefix, owner: 'w2', logger: silentLogger });
    const end = await one.take('main');
    expect(await two.tryTake('main')).toBeUndefined();
    // Another branch has its own turn.
    const other = await two.tryTake('release');
    expect(other).toBeDefined();
    await other?.();
    let taken = false;
    const waiting = two.take('main').then((endTwo) => {
      taken = true;
      return endTwo;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(taken).toBe(false);
    await end();
    await (
      await waiting
    )();
    expect(taken).toBe(true);
  });

  it('passes on a turn whose worker died (no renewal) once its expiry lapses', async () => {
    const prefix = freshPrefix();
    // What a SIGKILLed holder leaves: the key, renewed by nobody.
    await connection.set(`${prefix}:${QUEUE_NAME}:baton-turn:main`, 'dead-worker', 'PX', 400);
    const turns = redisTurns({ connection, prefix, owner: 'w1', logger: silentLogger });
    const started = Date.now();
    const end = await turns.take('main');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await end();
  });

  it('keeps a turn held past its expiry while its worker lives (renewed)', async () => {
    const prefix = freshPrefix();
    const one = redisTurns({ connection, prefix, owner: 'w1', ttlMs: 300, logger: silentLogger });
    const end = await one.take('main');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await one.tryTake('main')).toBeUndefined();
    await end();
    const again = await one.tryTake('main');
    expect(again).toBeDefined();
    await again?.();
  });

  it('hands the tip a turn pushed to the next holder, whether it takes the turn or waits for it', async () => {
    const prefix = freshPrefix();
    const one = redisTurns({ connection, prefix, owner: 'w1', logger: silentLogger });
    const two = redisTurns({ connection, prefix, owner: 'w2', logger: silentLogger });
    const first = await one.take('main');
    expect(first.lastPushed).toBeUndefined();
    await first('a'.repeat(40));
    const second = await two.take('main');
    expect(second.lastPushed).toBe('a'.repeat(40));
    // A turn that pushed nothing leaves the last tip as it was; the waiter's look hands it on too.
    const waited = one.awaitOutcome('main', 'x', 1);
    await second();
    const got = await waited;
    expect('end' in got && got.end.lastPushed).toBe('a'.repeat(40));
    if ('end' in got) await got.end('b'.repeat(40));
    expect((await two.take('main')).lastPushed).toBe('b'.repeat(40));
    await one.close?.();
    await two.close?.();
  });

  it('records no tip for a holder whose turn had already passed to another', async () => {
    const prefix = freshPrefix();
    const stale = redisTurns({ connection, prefix, owner: 'w1', ttlMs: 200, logger: silentLogger });
    const end = await stale.take('main');
    // Its renewals stop (as in a stalled process) and the turn lapses to another worker.
    await connection.del(`${prefix}:${QUEUE_NAME}:baton-turn:main`);
    const other = await redisTurns({ connection, prefix, owner: 'w2', logger: silentLogger }).take('main');
    await end('c'.repeat(40));
    await other();
    expect((await stale.take('main')).lastPushed).toBeUndefined();
    await stale.close?.();
  });

  it('wakes a waiting worker when the turn ends, long before its next look', async () => {
    const prefix = freshPrefix();
    const holder = redisTurns({ connection, prefix, owner: 'w1', logger: silentLogger });
    // Looks 5 s apart: only the wake-up can hand it the turn soon after the end.
    const waiter = redisTurns({ connection, prefix, owner: 'w2', pausesMs: [5_000], logger: silentLogger });
    const end = await holder.take('main');
    const waiting = waiter.take('main');
    await new Promise((resolve) => setTimeout(resolve, 150));
    const ended = Date.now();
    await end();
    const turn = await waiting;
    expect(Date.now() - ended).toBeLessThan(2_000);
    await turn();
    await holder.close?.();
    await waiter.close?.();
  });

  it('lists offers oldest first, settles them for their workers and withdraws them', async () => {
    const prefix = freshPrefix();
    const holder = redisTurns({ connection, prefix, owner: 'w1', logger: silentLogger });
    const waiter = redisTurns({ connection, prefix, owner: 'w2', logger: silentLogger });
    const end = await holder.take('main');
    await waiter.offer('main', commit('b'));
    await waiter.offer('main', commit('c'));
    expect((await holder.offered('main', 10)).map((c) => c.taskId)).toEqual(['b', 'c']);
    expect((await holder.offered('main', 1)).map((c) => c.taskId)).toEqual(['b']);
    const awaited = waiter.awaitOutcome('main', 'b', 1);
    await holder.settle('main', [{ commit: commit('b'), outcome: { ok: true, by: holder.by } }], ['b']);
    expect(await awaited).toEqual({ outcome: { ok: true, by: 'w1' } });
    expect((await holder.offered('main', 10)).map((c) => c.taskId)).toEqual(['c']);
    // c was not settled: its worker gets the turn once the holder lets go.
    const forC = waiter.awaitOutcome('main', 'c', 1);
    await end();
    const got = await forC;
    expect('end' in got).toBe(true);
    // The turn comes with what is offered: c's own commit, the one left.
    expect('end' in got && got.end.offered?.map((c) => c.taskId)).toEqual(['c']);
    if ('end' in got) await got.end();
  });

  it('integrates without a turn when Redis cannot be reached (the push alone keeps the result right)', async () => {
    const { remote, clone } = remoteWithClones('unreachable');
    // A real client of a port nothing listens on, failing at once instead of retrying.
    const down = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
    down.on('error', () => undefined);
    const sites = await createRemoteSites({
      repoDir: clone('w1'),
      logger: silentLogger,
      turns: redisTurns({ connection: down, prefix: freshPrefix(), owner: 'w1', logger: silentLogger }),
    });
    const site = await sites
      .forBranch('main')
      .open(materializeTask({ id: 'a', title: 'a', acceptanceCriteria: [{ description: 'a.txt', check: 'test -f a.txt' }] }, Date.now()));
    writeFileSync(path.join(site.dir, 'a.txt'), 'a\n');
    expect(await site.complete?.(1, { id: 'da' } as Dispatch)).toEqual({ ok: true });
    const onRemote = execFileSync('git', ['ls-tree', '--name-only', 'main'], { cwd: remote, encoding: 'utf8' });
    expect(onRemote.split('\n').filter(Boolean).sort()).toEqual(['README.md', 'a.txt']);
    await site.release();
    await sites.close();
    down.disconnect();
  });

  it('hands a shared tip, its pack byte for byte, to the other workers, in the order shared', async () => {
    const prefix = freshPrefix();
    const [w1, w2] = ['w1', 'w2'].map((owner) => redisTurns({ connection, prefix, owner, logger: silentLogger }));
    const heard: SharedTip[] = [];
    w2!.onShared?.('main', (tip) => heard.push(tip));
    // The subscription is made on its own connection: wait until Redis counts it.
    const channel = `${prefix}:${QUEUE_NAME}:baton-turn:main:tips`;
    while (((await connection.pubsub('NUMSUB', channel)) as [string, number])[1] < 1) await new Promise((r) => setTimeout(r, 10));
    const pack = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await w1!.share?.('main', { base: 'a'.repeat(40), tip: 'b'.repeat(40), pack });
    await w1!.share?.('main', { base: 'b'.repeat(40), tip: 'c'.repeat(40), pack: Buffer.alloc(0) });
    while (heard.length < 2) await new Promise((r) => setTimeout(r, 10));
    expect(heard.map(({ base, tip, by }) => [base[0], tip[0], by])).toEqual([
      ['a', 'b', 'w1'],
      ['b', 'c', 'w1'],
    ]);
    expect(Buffer.compare(Buffer.from(heard[0]!.pack), pack)).toBe(0);
    expect(heard[1]!.pack.length).toBe(0);
    await w1!.close?.();
    await w2!.close?.();
  });

  it('brings the tip another worker pushed into a worker’s clone without a fetch, and its next task builds on it', async () => {
    const prefix = freshPrefix();
    const { remote, clone } = remoteWithClones('shared');
    const [c1, c2] = [clone('w1'), clone('w2')];
    const turns = ['w1', 'w2'].map((owner) => redisTurns({ connection, prefix, owner, logger: silentLogger }));
    const [w1, w2] = [
      await createRemoteSites({ repoDir: c1, logger: silentLogger, turns: turns[0] }),
      await createRemoteSites({ repoDir: c2, logger: silentLogger, turns: turns[1] }),
    ];
    const task = (id: string) =>
      materializeTask({ id, title: id, acceptanceCriteria: [{ description: `${id}.txt`, check: `test -f ${id}.txt` }] }, Date.now());
    // w2 opens a task first: it listens for the branch's tips from then on.
    const b = await w2.forBranch('main').open(task('b'));
    const channel = `${prefix}:${QUEUE_NAME}:baton-turn:main:tips`;
    while (((await connection.pubsub('NUMSUB', channel)) as [string, number])[1] < 1) await new Promise((r) => setTimeout(r, 10));
    const a = await w1.forBranch('main').open(task('a'));
    writeFileSync(path.join(a.dir, 'a.txt'), 'a\n');
    expect(await a.complete?.(1, { id: 'da' } as Dispatch)).toEqual({ ok: true });
    const pushed = execFileSync('git', ['rev-parse', 'main'], { cwd: remote, encoding: 'utf8' }).trim();
    const tracked = () => execFileSync('git', ['rev-parse', 'origin/main'], { cwd: c2, encoding: 'utf8' }).trim();
    for (let i = 0; i < 200 && tracked() !== pushed; i++) await new Promise((r) => setTimeout(r, 10));
    expect(tracked()).toBe(pushed);
    // Taken in from the shared pack (its own reflog entry), not fetched; every object is there.
    const reflog = execFileSync('git', ['reflog', '-1', '--format=%gs', 'refs/remotes/origin/main'], { cwd: c2, encoding: 'utf8' });
    expect(reflog.trim()).toBe('baton: w1 pushed');
    execFileSync('git', ['fsck', '--connectivity-only', '--no-dangling'], { cwd: c2 });
    expect(execFileSync('git', ['show', `${pushed}:a.txt`], { cwd: c2, encoding: 'utf8' })).toBe('a\n');
    // b's agent ends: the clone already has the tip, and b lands on it (no merge commit).
    writeFileSync(path.join(b.dir, 'b.txt'), 'b\n');
    b.workspace.agentDone?.();
    expect(await b.complete?.(1, { id: 'db' } as Dispatch)).toEqual({ ok: true });
    expect(execFileSync('git', ['log', '--format=%s', 'main'], { cwd: remote, encoding: 'utf8' }).trim().split('\n')).toEqual([
      'baton: b (attempt 1)',
      'baton: a (attempt 1)',
      'seed',
    ]);
    expect(execFileSync('git', ['reflog', '--format=%gs', 'refs/remotes/origin/main'], { cwd: c2, encoding: 'utf8' })).not.toMatch(
      /^fetch/m,
    );
    for (const site of [a, b]) await site.release();
    await w1.close();
    await w2.close();
    for (const t of turns) await t.close?.();
  });

  it('has a waiting worker’s commit taken along by the worker whose turn it is: one push for both', async () => {
    const prefix = freshPrefix();
    const { remote, clone, pushes } = remoteWithClones('along');
    const events: SupervisorEvent[] = [];
    const sitesFor = async (name: string) =>
      createRemoteSites({
        repoDir: clone(name),
        logger: silentLogger,
        turns: redisTurns({ connection, prefix, owner: name, logger: silentLogger }),
        onEvent: (event) => events.push(event),
      });
    const [w1, w2] = [await sitesFor('w1'), await sitesFor('w2')];
    const task = (id: string) =>
      materializeTask({ id, title: id, acceptanceCriteria: [{ description: `${id}.txt`, check: `test -f ${id}.txt` }] }, Date.now());
    const a = await w1.forBranch('main').open(task('a'));
    const b = await w2.forBranch('main').open(task('b'));
    writeFileSync(path.join(a.dir, 'a.txt'), 'a\n');
    writeFileSync(path.join(b.dir, 'b.txt'), 'b\n');
    // Someone else integrates: both finish meanwhile, so both offer and wait.
    const busy = await redisTurns({ connection, prefix, owner: 'other', logger: silentLogger }).take('main');
    const gates = Promise.all([a.complete?.(1, { id: 'da' } as Dispatch), b.complete?.(1, { id: 'db' } as Dispatch)]);
    const other = redisTurns({ connection, prefix, owner: 'probe', logger: silentLogger });
    while ((await other.offered('main', 10)).length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    await busy();
    expect(await gates).toEqual([{ ok: true }, { ok: true }]);
    const details = events.flatMap((e) => (e.type === 'integration' ? [`${e.taskId}: ${e.detail}`] : []));
    // One took the other along: its worker's event names who pushed it.
    expect(details.filter((d) => /pushed to origin\/main by w[12]$/.test(d))).toHaveLength(1);
    const onRemote = execFileSync('git', ['ls-tree', '--name-only', 'main'], { cwd: remote, encoding: 'utf8' });
    expect(onRemote.split('\n').filter(Boolean).sort()).toEqual(['README.md', 'a.txt', 'b.txt']);
    expect(execFileSync('cat', [pushes], { encoding: 'utf8' }).trim().split('\n')).toHaveLength(1);
    expect(await other.offered('main', 10)).toEqual([]);
    await a.release();
    await b.release();
    await w1.close();
    await w2.close();
  });
});
