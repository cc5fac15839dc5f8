import { describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { touchSession } from '../../src/refresh/session-state.js';
import { GitCache, refreshTasks } from '../../src/refresh/index.js';
import { makeRepo } from './helpers.js';

describe('session freshness record', () => {
  it('two first refreshes of one session at once both record it (no "already exists" failure)', async () => {
    const ledger = new MemoryLedger();
    const update = { workspace: '/w', head: 'abc', now: 1 };
    // Both read "no session yet", then both write: the second create must become an update.
    await expect(
      Promise.all([touchSession(ledger, 'mcp-1', undefined, update), touchSession(ledger, 'mcp-1', undefined, { ...update, now: 2 })]),
    ).resolves.toBeDefined();
    const record = await ledger.getRecord<{ lastRefreshAt: number }>('sessions', 'mcp-1');
    expect([1, 2]).toContain(record?.data.lastRefreshAt);
  });

  it('a many-task refresh records its session once per task without a conflict', async () => {
    const repo = makeRepo();
    try {
      const ledger = new MemoryLedger();
      for (const id of ['a', 'b', 'c', 'd']) await ledger.createTask({ id, title: id, status: 'in_progress' });
      await refreshTasks(['a', 'b', 'c', 'd'], { workspace: repo.dir, ledger, gitCache: new GitCache(), sessionId: 'mcp-shared' });
      const record = await ledger.getRecord('sessions', 'mcp-shared');
      expect(record?.status).toBe('active');
    } finally {
      repo.cleanup();
    }
  });
});
