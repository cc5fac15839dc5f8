import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { type Ledger, type LedgerLine, openLedger, type Task } from '../../src/ledger/index.js';

let dir: string;
let ledger: Ledger;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'baton-sqlite-transfer-'));
  ledger = await openLedger({ spec: `sqlite:${path.join(dir, 'ledger.db')}` });
});
afterEach(async () => {
  await ledger.close();
  await rm(dir, { recursive: true, force: true });
});

describe('SQLite import and export', () => {
  it('imports nothing when any line is refused, and names the line', async () => {
    await ledger.createTask({ id: 'existing', title: 'Before' });
    const good: Task = { ...(await ledger.getTask('existing'))!, title: 'Overwritten' };
    const broken = { ...good, id: 'broken', title: undefined } as unknown as Task;
    const lines: LedgerLine[] = [
      { kind: 'task', record: good },
      { kind: 'task', record: { ...good, id: 'new' } },
      { kind: 'task', record: broken },
    ];
    let caught: unknown;
    try {
      await ledger.importLines(lines);
    } catch (error) {
      caught = error;
    }
    expect(isBatonError(caught, 'IMPORT_INVALID')).toBe(true);
    expect((caught as Error).message).toContain('line 3');
    expect((await ledger.getTask('existing'))?.title).toBe('Before');
    expect(await ledger.getTask('new')).toBeUndefined();
  });

  it('streams an export larger than one read chunk, in seq order, while the ledger stays usable', async () => {
    const lines: LedgerLine[] = Array.from({ length: 2_500 }, (_, i) => ({
      kind: 'dispatch',
      record: {
        id: `d${String(i).padStart(5, '0')}`,
        seq: i + 1,
        taskId: `t${i % 10}`,
        attempt: 1,
        provider: 'p',
        status: 'completed',
        filesCreated: [],
        filesUpdated: [],
        filesDeleted: [],
        validationErrors: [],
        startedAt: 1_000 + i,
      },
    }));
    expect(await ledger.importLines(lines)).toBe(2_500);
    const seqs: number[] = [];
    for await (const line of ledger.exportLines()) {
      if (line.kind !== 'dispatch') continue;
      seqs.push(line.record.seq);
      // Reads between lines must work: the export holds no statement open across yields.
      if (seqs.length === 1_500) expect(await ledger.countDispatches()).toBe(2_500);
    }
    expect(seqs).toEqual(lines.map((l) => (l.kind === 'dispatch' ? l.record.seq : 0)));
    expect((await ledger.appendDispatch({ taskId: 't1', attempt: 2, provider: 'p' })).seq).toBe(2_501);
  });
});
