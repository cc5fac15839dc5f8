export * from './light.js';
export { diffSnapshots } from './diff-snapshots.js';
export { mapLimit } from './hash-file.js';
export { parsePorcelain } from './porcelain.js';

export { snapshotWorkspace } from './snapshot-workspace.js';
export type { SnapshotOptions } from './snapshot-workspace.js';
export type { CheckResult, WorkspaceDiff, WorkspaceSnapshot } from './types.js';
