import type { WorkspaceDiff, WorkspaceSnapshot } from './types.js';

/**
 * Files created, updated and deleted between two snapshots of the same workspace, each list
 * sorted. A file whose content changed is updated even if it was already modified before the run.
 * Pure.
 */
export function diffSnapshots(before: WorkspaceSnapshot, after: WorkspaceSnapshot): WorkspaceDiff {
  const created: string[] = [];
  const updated: string[] = [];
  const deleted: string[] = [];
  for (const [file, hash] of after.files) {
    const previous = before.files.get(file);
    if (previous === undefined) created.push(file);
    else if (previous !== hash) updated.push(file);
  }
  for (const file of before.files.keys()) {
    if (!after.files.has(file)) deleted.push(file);
  }
  return { created: created.sort(), updated: updated.sort(), deleted: deleted.sort() };
}
