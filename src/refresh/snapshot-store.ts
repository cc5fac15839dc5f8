import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BatonError } from '../errors/index.js';
import { type Ledger, type LedgerRecord, newId } from '../ledger/index.js';
import type { ContextSnapshot, RefreshFormat } from './types.js';
import { checkSnapshotInfo, checkSnapshotQuery, SNAPSHOT_ID_PATTERN } from './refresh-options-schema.js';

/** Where snapshots are written, relative to the workspace. @default '.baton/snapshots' */
export const SNAPSHOT_DIR = path.join('.baton', 'snapshots');

/** Ledger index entry of a saved snapshot (collection 'snapshots'). */
export interface SnapshotIndexData {
  file: string;
  workspace: string;
  generatedAt: number;
  format: RefreshFormat;
  tokens: number;
  head?: string;
}

/**
 * Saves an already-redacted snapshot to `.baton/snapshots/{id}.json` and indexes it in the ledger.
 * Returns the index record.
 */
export async function saveSnapshot(
  workspace: string,
  ledger: Ledger,
  snapshot: ContextSnapshot,
  info: { format: RefreshFormat; tokens: number; id?: string },
): Promise<LedgerRecord<SnapshotIndexData>> {
  checkSnapshotInfo(info);
  const id = info.id ?? newId('snap-');
  const dir = path.join(workspace, SNAPSHOT_DIR);
  await mkdir(dir, { recursive: true });
  const file = path.join(SNAPSHOT_DIR, `${id}.json`);
  await writeFile(path.join(workspace, file), `${JSON.stringify(snapshot, null, 1)}\n`);
  return ledger.createRecord<SnapshotIndexData>('snapshots', {
    id,
    taskId: snapshot.task?.id,
    status: 'saved',
    data: { file, workspace, generatedAt: snapshot.generatedAt, format: info.format, tokens: info.tokens, head: snapshot.git?.head },
  });
}

/** Saved snapshots of a workspace, newest first. */
export async function listSnapshots(
  ledger: Ledger,
  query: { taskId?: string; limit?: number; cursor?: string } = {},
): Promise<{ items: Array<LedgerRecord<SnapshotIndexData>>; nextCursor?: string }> {
  checkSnapshotQuery(query);
  return ledger.listRecords<SnapshotIndexData>('snapshots', { taskId: query.taskId, limit: query.limit ?? 20, cursor: query.cursor });
}

/** Loads a saved snapshot by id. Throws INPUT_INVALID for a malformed id, NOT_FOUND for an unknown one. */
export async function loadSnapshot(workspace: string, ledger: Ledger, id: string): Promise<ContextSnapshot> {
  if (!SNAPSHOT_ID_PATTERN.test(id)) {
    throw new BatonError('INPUT_INVALID', `"${id}" is not a snapshot id (snap-…) nor a timestamp`, {
      details: { field: 'since', value: id },
    });
  }
  const record = await ledger.getRecord<SnapshotIndexData>('snapshots', id);
  const file = path.join(workspace, SNAPSHOT_DIR, `${id}.json`);
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ContextSnapshot;
  } catch (error) {
    throw new BatonError('NOT_FOUND', `Snapshot ${id} not found${record ? ` (indexed, but ${file} is unreadable)` : ''}.`, {
      cause: error,
      details: { field: 'since', value: id },
    });
  }
}

/** The newest saved snapshot taken at or before `atMs` (for `since` given as a time). */
export async function findSnapshotBefore(workspace: string, ledger: Ledger, atMs: number, taskId?: string) {
  const page = await listSnapshots(ledger, { taskId, limit: 50 });
  return page.items
    .filter((item) => item.data.workspace === workspace && item.data.generatedAt <= atMs)
    .sort((a, b) => b.data.generatedAt - a.data.generatedAt)[0];
}
