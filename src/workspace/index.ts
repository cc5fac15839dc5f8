export * from './light.js';
export { diffSnapshots } from './diff-snapshots.js';
export { hashFile, mapLimit } from './hash-file.js';
export { DEFAULT_IGNORED_DIRS, IgnoreRules } from './ignore-rules.js';
export { snapshotWorkspace } from './snapshot-workspace.js';
export type { SnapshotOptions } from './snapshot-workspace.js';
export type { CheckResult, WorkspaceDiff, WorkspaceSnapshot } from './types.js';
