import { describe, expect, it } from 'vitest';
import { gatherStatus } from '../../src/cli/commands/status/gather-status.js';
import {
  isBreakerCapable,
  isClaimCapable,
  isFullLedger,
  isRecordCapable,
  isTransferCapable,
  type LedgerCore,
  MemoryLedger,
} from '../../src/ledger/index.js';
import { readLedgerContext } from '../../src/refresh/read-ledger-context.js';

const CORE_METHODS = [
  'createTask',
  'upsertTask',
  'updateTask',
  'getTask',
  'listTasks',
  'countTasksByStatus',
  'recentCompletedTasks',
  'appendDispatch',
  'updateDispatch',
  'getDispatch',
  'lastDispatches',
  'recentDispatches',
  'listDispatches',
  'countDispatches',
  'markInterrupted',
  'close',
] as const;

/** A backend that implements only the core, built by exposing the memory ledger's core methods. */
function coreOnly(full: MemoryLedger): LedgerCore {
  const core: Record<string, unknown> = { backend: full.backend, location: full.location };
  for (const name of CORE_METHODS) core[name] = (full[name] as (...args: unknown[]) => unknown).bind(full);
  return core as unknown as LedgerCore;
}

describe('ledger capabilities', () => {
  it('guards report no optional capability on a core-only backend', () => {
    const core = coreOnly(new MemoryLedger());
    expect([isClaimCapable(core), isBreakerCapable(core), isRecordCapable(core), isTransferCapable(core), isFullLedger(core)]).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('a guard needs every method of its capability, not just one', () => {
    const core = coreOnly(new MemoryLedger()) as LedgerCore & { getBreaker?: unknown };
    core.getBreaker = async () => undefined;
    expect(isBreakerCapable(core)).toBe(false);
  });

  it('status works on a core-only ledger and shows no breakers', async () => {
    const full = new MemoryLedger(() => 1_000);
    await full.createTask({ id: 't1', title: 'one' });
    await full.compareAndSetBreaker('claude', 0, { state: 'open', failureCount: 3, until: 5_000, reason: 'rate limit' });
    const fromCore = await gatherStatus(coreOnly(full), { dispatchLimit: 5 });
    const fromFull = await gatherStatus(full, { dispatchLimit: 5 });
    expect(fromCore.tasks.total).toBe(1);
    expect(fromCore.openBreakers).toEqual([]);
    expect(fromFull.openBreakers.map((b) => b.provider)).toEqual(['claude']);
  });

  it('reads a task context from a core-only ledger without debt or research', async () => {
    const full = new MemoryLedger(() => 1_000);
    await full.createTask({ id: 't1', title: 'one', status: 'in_progress' });
    await full.createRecord('debt', { status: 'open', taskId: 't1', data: { description: 'x', severity: 'high' } });
    const options = { taskId: 't1', dispatchLimit: 3, includeTechDebt: true, includeDispatches: true, includeResearch: true };
    const fromCore = await readLedgerContext(coreOnly(full), options);
    const fromFull = await readLedgerContext(full, options);
    expect(fromCore.task?.id).toBe('t1');
    expect(fromCore.debt).toEqual([]);
    expect(fromFull.debt).toHaveLength(1);
  });
});
