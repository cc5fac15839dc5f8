/**
 * Redis-specific guarantees beyond the shared contract: cursors stay exact when many rows share a
 * timestamp, imports are checked before anything is written and bulk imports keep every index
 * right, and every key lives under the namespace prefix with core data types only.
 */
import { afterAll, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { type Dispatch, type Ledger, type LedgerLine, type LedgerRecord, openLedger, type Page } from '../../src/ledger/index.js';
import { redactRedisUrl } from '../../src/ledger/redis/index.js';
import { deleteNamespace, describeWithRedis, REDIS_TEST_URL, uniqueNamespace, withRawRedis } from '../helpers/redis.js';

const namespaces: string[] = [];

async function open(label: string, now?: () => number): Promise<{ ledger: Ledger; namespace: string }> {
  const namespace = uniqueNamespace(label);
  namespaces.push(namespace);
  return { ledger: await openLedger({ spec: REDIS_TEST_URL, namespace, now }), namespace };
}

function dispatchLine(i: number, taskId: string, status: Dispatch['status'] = 'completed'): LedgerLine {
  return {
    kind: 'dispatch',
    record: {
      id: `imp-${String(i).padStart(5, '0')}`,
      seq: i + 1,
      taskId,
      attempt: 1,
      provider: 'p',
      status,
      filesCreated: [],
      filesUpdated: [],
      filesDeleted: [],
      validationErrors: [],
      startedAt: 1_700_000_000_000 + i,
    },
  };
}

it('redacts the password, and only the password, from Redis URLs', () => {
  expect(redactRedisUrl('redis://:s3cret@cache:6379/2')).toBe('redis://cache:6379/2');
  expect(redactRedisUrl('rediss://admin:s3cret@cache:6380/0')).toBe('rediss://admin@cache:6380/0');
  expect(redactRedisUrl('redis://127.0.0.1:6379/15')).toBe('redis://127.0.0.1:6379/15');
  expect(redactRedisUrl('redis://:s3cret@bad host')).not.toContain('s3cret');
});

await describeWithRedis('redis ledger behaviour', () => {
  afterAll(async () => {
    for (const ns of namespaces) await deleteNamespace(ns);
  });

  it('paginates without gaps or duplicates when every row has the same timestamp', async () => {
    const { ledger } = await open('ties', () => 1_700_000_000_000);
    try {
      const ids = Array.from({ length: 23 }, (_, i) => `t-${String.fromCharCode(97 + (i % 26))}${i}`);
      for (const id of [...ids].reverse()) await ledger.createTask({ id, title: id, status: ids.indexOf(id) % 2 ? 'blocked' : 'pending' });
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await ledger.listTasks({ limit: 4, cursor });
        seen.push(...page.items.map((t) => t.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual([...ids].sort());

      const both: string[] = [];
      cursor = undefined;
      do {
        const page = await ledger.listTasks({ status: ['blocked', 'pending'], limit: 5, cursor });
        both.push(...page.items.map((t) => t.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(both).toEqual([...ids].sort());

      for (let i = 0; i < 9; i += 1) await ledger.createRecord('audit', { id: `a${i}`, data: { i } });
      const records: string[] = [];
      cursor = undefined;
      do {
        const page: Page<LedgerRecord> = await ledger.listRecords('audit', { limit: 2, cursor });
        records.push(...page.items.map((r) => r.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(records).toEqual(['a8', 'a7', 'a6', 'a5', 'a4', 'a3', 'a2', 'a1', 'a0']);
    } finally {
      await ledger.close();
    }
  });

  it('refuses an import with a bad line, naming the line and field, and writes none of it', async () => {
    const { ledger } = await open('badimport');
    try {
      const lines: LedgerLine[] = [dispatchLine(0, 't1'), dispatchLine(1, 't1'), dispatchLine(2, 't1')];
      (lines[2] as { record: { seq: unknown } }).record.seq = 'three';
      const error = await ledger.importLines(lines).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isBatonError(error, 'IMPORT_INVALID')).toBe(true);
      expect((error as Error).message).toMatch(/Line 3: invalid seq/);
      expect(await ledger.countDispatches()).toBe(0);
    } finally {
      await ledger.close();
    }
  });

  it('bulk-imports thousands of dispatches with every index right, then continues their seq', async () => {
    const { ledger } = await open('bulk');
    try {
      const lines: LedgerLine[] = [{ kind: 'task', record: { ...(await ledger.createTask({ id: 'tx', title: 'x' })), title: 'y' } }];
      for (let i = 0; i < 4_321; i += 1) lines.push(dispatchLine(i, `t${i % 3}`, i % 10 === 0 ? 'running' : 'completed'));
      expect(await ledger.importLines(lines)).toBe(lines.length);
      expect(await ledger.countDispatches()).toBe(4_321);
      expect((await ledger.getTask('tx'))?.title).toBe('y');
      expect((await ledger.lastDispatches('t1', 2)).map((d) => d.seq)).toEqual([4_319, 4_316]);
      expect((await ledger.recentDispatches(1))[0]?.id).toBe('imp-04320');
      const running = await ledger.markInterrupted({ taskId: 't0' });
      expect(running.length).toBe(Array.from({ length: 4_321 }, (_, i) => i).filter((i) => i % 10 === 0 && i % 3 === 0).length);
      expect((await ledger.listDispatches({ status: 'running', limit: 1_000 })).items.every((d) => d.taskId !== 't0')).toBe(true);
      expect((await ledger.appendDispatch({ taskId: 't0', attempt: 9, provider: 'p' })).seq).toBe(4_322);
    } finally {
      await ledger.close();
    }
  });

  it('loses no update when two connections merge into one record concurrently', async () => {
    const { ledger, namespace } = await open('cas');
    const other = await openLedger({ spec: REDIS_TEST_URL, namespace });
    try {
      await ledger.createRecord('sessions', { id: 's1', status: 'active', data: {} });
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 ? other : ledger).updateRecord('sessions', 's1', { data: { [`k${i}`]: i }, status: i % 3 ? 'active' : 'idle' }),
        ),
      );
      const record = await ledger.getRecord('sessions', 's1');
      expect(Object.keys(record?.data ?? {}).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `k${i}`).sort());
      // Whatever status won, the record sits in exactly that status index.
      const indexed = await withRawRedis(async (client) =>
        Promise.all(['active', 'idle'].map((s) => client.zcard(`baton:${namespace}:recs:sessions:by_status:${s}`))),
      );
      expect(indexed[0]! + indexed[1]!).toBe(1);
      expect(indexed[record?.status === 'active' ? 0 : 1]).toBe(1);
    } finally {
      await other.close();
      await ledger.close();
    }
  });

  it('closes cleanly and twice, after which calls fail with LEDGER_UNAVAILABLE', async () => {
    const { ledger } = await open('closed');
    await ledger.createTask({ id: 't1', title: 'a' });
    await ledger.close();
    await ledger.close();
    const error = await ledger.getTask('t1').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isBatonError(error, 'LEDGER_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain(REDIS_TEST_URL);
  });

  it('keeps fields this version does not know when it reads a stored task, inside acceptance criteria too', async () => {
    const { ledger, namespace } = await open('unknown-fields');
    try {
      await ledger.createTask({ id: 't1', title: 'a', acceptanceCriteria: [{ description: 'd' }] });
      const key = `baton:${namespace}:task:t1`;
      await withRawRedis(async (client) => {
        const stored = JSON.parse((await client.hget(key, 'v')) as string) as Record<string, unknown>;
        const criteria = [{ description: 'd', timeoutMs: 5 }];
        await client.hset(key, 'v', JSON.stringify({ ...stored, acceptanceCriteria: criteria, laterField: 1 }));
      });
      expect(await ledger.getTask('t1')).toMatchObject({ acceptanceCriteria: [{ description: 'd', timeoutMs: 5 }], laterField: 1 });
    } finally {
      await ledger.close();
    }
  });

  it('keeps every key under baton:<namespace>: and uses only core data types', async () => {
    const { ledger, namespace } = await open('keys');
    try {
      await ledger.createTask({ id: 't1', title: 'a' });
      await ledger.updateTask('t1', { status: 'completed' });
      await ledger.appendDispatch({ taskId: 't1', attempt: 1, provider: 'p' });
      await ledger.claimTask('t1', 'me', 60_000);
      await ledger.compareAndSetBreaker('p', 0, { state: 'open', failureCount: 1 });
      await ledger.createRecord('debt', { status: 'open', taskId: 't1', data: { title: 'x' } });
      const types = await withRawRedis(async (client) => {
        const keys = await client.keys(`baton:${namespace}:*`);
        return Promise.all(keys.map(async (key) => [key, await client.type(key)] as const));
      });
      expect(types.length).toBeGreaterThan(8);
      for (const [key, type] of types) {
        expect(key.startsWith(`baton:${namespace}:`)).toBe(true);
        expect(['hash', 'zset', 'set', 'string']).toContain(type);
      }
    } finally {
      await ledger.close();
    }
  });
});
