import { diffSnapshots, type SnapshotOptions, snapshotWorkspace, type WorkspaceSnapshot } from '../workspace/index.js';
import { runCheck } from './run-check.js';
import type { WorkspaceOps } from './types.js';

/** The real workspace: git-aware snapshots for measuring runs, check commands in `dir`. */
export function workspaceOps(dir: string, snapshot: SnapshotOptions = {}): WorkspaceOps {
  return {
    snapshot: () => snapshotWorkspace(dir, snapshot),
    diff: (before, after) => diffSnapshots(before as WorkspaceSnapshot, after as WorkspaceSnapshot),
    runCheck: (command, options) => runCheck(command, { cwd: dir, timeoutMs: options.timeoutMs }),
  };
}
