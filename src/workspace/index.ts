export { diffSnapshots } from './diff-snapshots.js';
export { hashFile, mapLimit } from './hash-file.js';
export { DEFAULT_IGNORED_DIRS, IgnoreRules } from './ignore-rules.js';
export { DEFAULT_GIT_MAX_BYTES, git, gitOk, runGit } from './run-git.js';
export { snapshotWorkspace } from './snapshot-workspace.js';
export type { SnapshotOptions } from './snapshot-workspace.js';
export type { GitOptions, GitOutput, GitResult } from './run-git.js';
export type { CheckResult, WorkspaceDiff, WorkspaceSnapshot } from './types.js';
