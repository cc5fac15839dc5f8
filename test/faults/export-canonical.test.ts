/**
 * Issue 34 item 14: `baton export` is canonical. The same input gives byte-identical exports from
 * SQLite and Redis: every line's keys in one order (sorted, at every depth), whatever order the
 * backend stores or rebuilds them in.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LedgerLine } from '../../src/ledger/index.js';
import { runBaton, tempDir } from '../helpers/cli.js';
import { deleteNamespace, isRedisReachable, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';

const T = 1_760_000_000_000;
/** Every record kind, with keys in a scrambled order (as a hand-edited or foreign file has them). */
const INPUT: LedgerLine[] = [
  {
    record: {
      updatedAt: T + 5,
      links: { workflow: 'feature', skills: ['react'] },
      title: 'Add the login form',
      status: 'completed',
      options: { zeta: 1, alpha: { b: 2, a: 1 } },
      id: 'login',
      intent: 'Users sign in',
      priority: 5,
      instructions: 'Build src/login.tsx',
      acceptanceCriteria: [{ check: 'npm test', description: 'tests pass' }],
      dependsOn: ['setup'],
      resultSummary: 'done',
      createdAt: T,
      completedAt: T + 5,
      difficulty: 'medium',
    },
    kind: 'task',
  },
  {
    kind: 'task',
    record: {
      createdAt: T + 1,
      id: 'setup',
      title: 'Set up',
      instructions: '',
      intent: '',
      acceptanceCriteria: [],
      status: 'pending',
      priority: 0,
      dependsOn: [],
      options: {},
      links: {},
      updatedAt: T + 1,
    },
  },
  {
    record: {
      validationErrors: [],
      taskId: 'login',
      status: 'completed',
      seq: 1,
      provider: 'claude',
      attempt: 1,
      id: 'd-1',
      filesUpdated: ['src/login.tsx'],
      filesDeleted: [],
      filesCreated: ['src/a.ts'],
      startedAt: T + 2,
      finishedAt: T + 4,
      outcome: 'ok',
      injectedContext: 'line1\nline2',
    },
    kind: 'dispatch',
  },
  {
    kind: 'breaker',
    record: { updatedAt: T + 3, generation: 1, failureCount: 2, state: 'open', provider: 'codex', until: T + 60_000, reason: 'quota' },
  },
  // A lease still running (Redis lets an expired claim's key expire; SQLite keeps its row).
  { record: { leaseUntil: Date.now() + 86_400_000, owner: 'worker-1', taskId: 'setup' }, kind: 'claim' },
  {
    collection: 'debt',
    record: {
      updatedAt: T + 6,
      data: { title: 'Flaky', detail: { z: 1, a: 2 } },
      taskId: 'login',
      status: 'open',
      id: 'debt-1',
      createdAt: T + 6,
    },
    kind: 'record',
  },
];

/** Whether every object in a parsed line has its keys in sorted order. */
function keysSorted(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(keysSorted);
  if (typeof value !== 'object' || value === null) return true;
  const keys = Object.keys(value);
  return keys.every((key, i) => i === 0 || (keys[i - 1] as string) < key) && Object.values(value).every(keysSorted);
}

const redisUp = await isRedisReachable();
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe('baton export is canonical', () => {
  it.skipIf(!redisUp)('gives byte-identical lines from SQLite and Redis for the same import, keys sorted at every depth', async () => {
    const { dir, cleanup } = await tempDir('baton-export-');
    cleanups.push(cleanup);
    const namespace = uniqueNamespace('export');
    cleanups.push(() => deleteNamespace(namespace));
    const file = path.join(dir, 'input.jsonl');
    writeFileSync(file, INPUT.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const env = { BATON_NAMESPACE: namespace };
    const ledgers = [`sqlite:${path.join(dir, 'agent.db')}`, REDIS_TEST_URL];

    const exports: string[] = [];
    for (const ledger of ledgers) {
      const imported = await runBaton(['import', file, '--ledger', ledger], { cwd: dir, env });
      expect(imported.code, imported.stderr).toBe(0);
      const exported = await runBaton(['export', '--ledger', ledger], { cwd: dir, env });
      expect(exported.code, exported.stderr).toBe(0);
      exports.push(exported.stdout);
    }
    const [fromSqlite, fromRedis] = exports;
    expect(fromSqlite?.split('\n')).toHaveLength(INPUT.length + 1);
    expect(fromRedis).toBe(fromSqlite);
    for (const line of (fromSqlite ?? '').trim().split('\n')) expect(keysSorted(JSON.parse(line)), line).toBe(true);
  });
});
