import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openSqliteDatabase } from '../../src/ledger/sqlite/open-sqlite-database.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLedgerLine, type LedgerLine } from '../../src/ledger/index.js';
import { runBaton, tempDir } from '../helpers/cli.js';
import { hasRedisServerBinary, startRedisServer, type TestRedisServer } from '../helpers/redis.js';

/** A ledger file of `count` tasks and `count` dispatches, each dispatch carrying ~1 KB of result. */
function ledgerFile(dir: string, name: string, count: number, from = 0): string {
  const lines: LedgerLine[] = [];
  const at = 1_700_000_000_000;
  for (let i = from; i < from + count; i++) {
    lines.push({
      kind: 'task',
      record: {
        id: `t${i}`,
        title: `Task ${i}`,
        instructions: 'Do it.',
        intent: '',
        acceptanceCriteria: [],
        status: 'completed',
        priority: 0,
        dependsOn: [],
        options: {},
        links: {},
        createdAt: at + i,
        updatedAt: at + i,
        completedAt: at + i,
        resultSummary: 'done',
      },
    });
    lines.push({
      kind: 'dispatch',
      record: {
        id: `d${i}`,
        seq: i + 1,
        taskId: `t${i}`,
        attempt: 1,
        provider: 'agent',
        status: 'completed',
        outcome: 'ok',
        filesCreated: [`src/file-${i}.ts`],
        filesUpdated: [],
        filesDeleted: [],
        validationErrors: [],
        result: `result ${i} `.padEnd(1_000, 'x'),
        startedAt: at + i,
        finishedAt: at + i + 5,
        durationMs: 5,
      },
    });
  }
  const file = path.join(dir, name);
  writeFileSync(file, lines.map((l) => `${formatLedgerLine(l)}\n`).join(''));
  return file;
}

async function exportText(dir: string, ledger: string): Promise<string> {
  const run = await runBaton(['export', '--ledger', ledger], { cwd: dir });
  expect(run.code).toBe(0);
  return run.stdout;
}

describe.skipIf(!hasRedisServerBinary())('a Redis import that runs out of memory half-way', () => {
  let server: TestRedisServer;
  let admin: Redis;
  beforeAll(async () => {
    // A throwaway server: the shared Redis's config is never changed.
    server = await startRedisServer();
    admin = new Redis(server.url);
  });
  afterAll(async () => {
    admin?.disconnect();
    await server?.stop();
  });

  it('imports nothing, says so with the maxmemory, and leaves the export byte-identical', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      expect((await runBaton(['import', ledgerFile(dir, 'seed.jsonl', 300), '--ledger', server.url], { cwd: dir })).code).toBe(0);
      const before = await exportText(dir, server.url);
      expect(before.split('\n').length).toBe(601);

      const usedBefore = Number(/^used_memory:(\d+)/m.exec(await admin.info('memory'))?.[1]);
      // Room for a few thousand of the 10,000 lines: the old one-MULTI-per-2,000-lines import
      // committed some batches here and then failed.
      await admin.config('SET', 'maxmemory', String(usedBefore + 6 * 1024 * 1024));
      await admin.config('RESETSTAT');
      const big = ledgerFile(dir, 'big.jsonl', 5_000, 300);
      const failed = await runBaton(['import', big, '--ledger', server.url], { cwd: dir });

      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(
        /Redis at redis:\/\/127\.0\.0\.1:\d+\/0 ran out of memory \(maxmemory [\d.]+M, used [\d.]+M\) while importing 10000 lines; nothing was imported\. .*raise maxmemory/,
      );
      expect(failed.stderr).not.toContain('unavailable');
      // Half-way: it had written megabytes of staging data before memory ran out.
      const peak = Number(/^used_memory_peak:(\d+)/m.exec(await admin.info('memory'))?.[1]);
      expect(peak).toBeGreaterThan(usedBefore + 4 * 1024 * 1024);

      expect(await exportText(dir, server.url)).toBe(before);
      expect(await admin.keys('*~import~*')).toEqual([]);

      // With room, the same file imports whole, merged over the ledger.
      await admin.config('SET', 'maxmemory', '0');
      const ok = await runBaton(['import', big, '--ledger', server.url, '--json'], { cwd: dir });
      expect(ok.code).toBe(0);
      const after = await exportText(dir, server.url);
      expect(after.split('\n').length).toBe(601 + 10_000);
      expect(after.startsWith(before.split('\n')[0]!)).toBe(true);
      expect(await admin.keys('*~import~*')).toEqual([]);
    } finally {
      await cleanup();
    }
  }, 120_000);
});

describe('a SQLite import that fails half-way', () => {
  it('rolls back every line and leaves the export byte-identical', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const ledger = `sqlite:${path.join(dir, 'agent.db')}`;
      expect((await runBaton(['import', ledgerFile(dir, 'seed.jsonl', 300), '--ledger', ledger], { cwd: dir })).code).toBe(0);
      const before = await exportText(dir, ledger);

      // An injected failure at line ~6,000 of 10,000 (a constraint the database itself enforces).
      const db = openSqliteDatabase(path.join(dir, 'agent.db'));
      db.exec(`CREATE TRIGGER fail_half_way BEFORE INSERT ON dispatches WHEN NEW.id = 'd3300'
               BEGIN SELECT RAISE(ABORT, 'injected failure half-way'); END`);
      db.close();
      const failed = await runBaton(['import', ledgerFile(dir, 'big.jsonl', 5_000, 300), '--ledger', ledger], { cwd: dir });
      expect(failed.code).toBe(2);
      expect(failed.stderr).toContain('Import line 6002 (dispatch) was refused: injected failure half-way');
      expect(await exportText(dir, ledger)).toBe(before);
    } finally {
      await cleanup();
    }
  }, 60_000);
});
