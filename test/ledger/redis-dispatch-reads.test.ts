/**
 * A task's last dispatches are read in one round trip from a copy of each dispatch's JSON kept in
 * a per-task hash. These tests hold the guarantees that copy must not break: every write keeps it
 * equal to the dispatch's own hash, a dispatch moved to another task by an import leaves the old
 * task, rows written without the copy are still found, and a corrupt row is reported by key and
 * field, whichever check (the hand-written one or zod) sees it first.
 */
import { afterAll, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { type Dispatch, type Ledger, type LedgerLine, openLedger } from '../../src/ledger/index.js';
import { deleteNamespace, describeWithRedis, REDIS_TEST_URL, uniqueNamespace, withRawRedis } from '../helpers/redis.js';

const namespaces: string[] = [];

async function open(label: string): Promise<{ ledger: Ledger; namespace: string }> {
  const namespace = uniqueNamespace(label);
  namespaces.push(namespace);
  return { ledger: await openLedger({ spec: REDIS_TEST_URL, namespace }), namespace };
}

function dispatch(i: number, taskId: string): Dispatch {
  return {
    id: `imp-${String(i).padStart(5, '0')}`,
    seq: i + 1,
    taskId,
    attempt: 1,
    provider: 'p',
    status: 'completed',
    filesCreated: [],
    filesUpdated: [],
    filesDeleted: [],
    validationErrors: [],
    startedAt: 1_700_000_000_000 + i,
  };
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as Error,
  );
}

await describeWithRedis('redis ledger: last dispatches of a task', () => {
  afterAll(async () => {
    for (const namespace of namespaces) await deleteNamespace(namespace);
  });

  it('keeps the per-task copy equal to the dispatch itself through appends, updates and interrupts', async () => {
    const { ledger, namespace } = await open('copies');
    try {
      const a = await ledger.appendDispatch({ taskId: 't1', attempt: 1, provider: 'p' });
      const b = await ledger.appendDispatch({ taskId: 't1', attempt: 2, provider: 'p' });
      await ledger.appendDispatch({ taskId: 't2', attempt: 1, provider: 'p' });
      await ledger.updateDispatch(a.id, { status: 'failed', outcome: 'rate_limited', result: 'slow down' });
      await ledger.markInterrupted({ taskId: 't1' });
      const last = await ledger.lastDispatches('t1', 5);
      expect(last.map((d) => [d.id, d.status, d.seq])).toEqual([
        [b.id, 'interrupted', b.seq],
        [a.id, 'failed', a.seq],
      ]);
      expect(last).toEqual(await Promise.all([b.id, a.id].map((id) => ledger.getDispatch(id))));
      const [copy, own] = await withRawRedis((client) =>
        Promise.all([
          client.hget(`baton:${namespace}:dispatches:json_by_task:t1`, a.id),
          client.hget(`baton:${namespace}:dispatch:${a.id}`, 'v'),
        ]),
      );
      expect(copy).toBe(own);
    } finally {
      await ledger.close();
    }
  });

  it('moves a dispatch that an import gives another task out of its old task', async () => {
    const { ledger, namespace } = await open('moved');
    try {
      await ledger.importLines([0, 1, 2].map((i): LedgerLine => ({ kind: 'dispatch', record: dispatch(i, 'old') })));
      await ledger.importLines([{ kind: 'dispatch', record: { ...dispatch(2, 'new'), result: 'moved' } }]);
      expect((await ledger.lastDispatches('old', 5)).map((d) => d.id)).toEqual(['imp-00001', 'imp-00000']);
      expect(await ledger.lastDispatches('new', 5)).toEqual([{ ...dispatch(2, 'new'), result: 'moved' }]);
      // Within one import too: the later line wins and the earlier task lets go of the id.
      await ledger.importLines([
        { kind: 'dispatch', record: dispatch(7, 'a') },
        { kind: 'dispatch', record: dispatch(7, 'b') },
      ]);
      expect(await ledger.lastDispatches('a', 5)).toEqual([]);
      expect((await ledger.lastDispatches('b', 5)).map((d) => d.id)).toEqual(['imp-00007']);
      const stale = await withRawRedis((client) => client.hexists(`baton:${namespace}:dispatches:json_by_task:old`, 'imp-00002'));
      expect(stale).toBe(0);
    } finally {
      await ledger.close();
    }
  });

  it('still finds dispatches whose per-task copy is missing, from their own hashes', async () => {
    const { ledger, namespace } = await open('nocopy');
    try {
      const appended: Dispatch[] = [];
      for (let i = 0; i < 3; i += 1) appended.push(await ledger.appendDispatch({ taskId: 't1', attempt: i + 1, provider: 'p' }));
      // As written by a version that kept no copies.
      await withRawRedis((client) => client.hdel(`baton:${namespace}:dispatches:json_by_task:t1`, appended[1]?.id as string));
      expect(await ledger.lastDispatches('t1', 3)).toEqual([...appended].reverse());
    } finally {
      await ledger.close();
    }
  });

  it('returns long histories whole and newest first', async () => {
    const { ledger } = await open('long');
    try {
      await ledger.importLines(Array.from({ length: 2_500 }, (_, i): LedgerLine => ({ kind: 'dispatch', record: dispatch(i, 't1') })));
      const last = await ledger.lastDispatches('t1', 2_400);
      expect(last.length).toBe(2_400);
      expect(last[0]?.seq).toBe(2_500);
      expect(last.at(-1)?.seq).toBe(101);
      expect(last.every((d, i) => i === 0 || d.seq === (last[i - 1] as Dispatch).seq - 1)).toBe(true);
    } finally {
      await ledger.close();
    }
  });

  it('reports each kind of corrupt dispatch row as LEDGER_CORRUPT naming its key, id and field', async () => {
    const { ledger, namespace } = await open('corrupt');
    try {
      const d = await ledger.appendDispatch({ taskId: 't1', attempt: 1, provider: 'p' });
      const { seq: _seq, ...row } = d;
      const copyKey = `baton:${namespace}:dispatches:json_by_task:t1`;
      const cases: [string, unknown][] = [
        ['(root)', [row]],
        ['(root)', null],
        ['id', { ...row, id: '' }],
        ['taskId', { ...row, taskId: 7 }],
        ['attempt', { ...row, attempt: '1' }],
        ['provider', { ...row, provider: undefined }],
        ['status', { ...row, status: 'exploded' }],
        ['filesCreated', { ...row, filesCreated: [1] }],
        ['filesUpdated', { ...row, filesUpdated: 'src/a.ts' }],
        ['filesDeleted', { ...row, filesDeleted: undefined }],
        ['validationErrors', { ...row, validationErrors: [null] }],
        ['startedAt', { ...row, startedAt: '2024' }],
      ];
      for (const [field, value] of cases) {
        await withRawRedis((client) => client.hset(copyKey, d.id, JSON.stringify(value)));
        const error = await failureOf(ledger.lastDispatches('t1', 2));
        expect(isBatonError(error, 'LEDGER_CORRUPT'), field).toBe(true);
        expect(error.message).toContain(`"${copyKey}" field "${d.id}"`);
        expect(error.message).toContain(field);
      }
      await withRawRedis((client) => client.hset(copyKey, d.id, '{not json'));
      expect((await failureOf(ledger.lastDispatches('t1', 2))).message).toContain('not JSON');
      const ownKey = `baton:${namespace}:dispatch:${d.id}`;
      await withRawRedis((client) => client.hset(ownKey, 'v', JSON.stringify({ ...row, status: 'exploded' })));
      const own = await failureOf(ledger.getDispatch(d.id));
      expect(isBatonError(own, 'LEDGER_CORRUPT')).toBe(true);
      expect(own.message).toContain(`"${ownKey}"`);
    } finally {
      await ledger.close();
    }
  });
});
