export { inProcessLock } from './branch-lock.js';

export { createRemoteSites } from './create-remote-sites.js';
export { createWorktreeSites } from './create-worktree-sites.js';

export { safeRefPart } from './task-branch.js';
export type { BranchLock } from './branch-lock.js';
export type { CommitPolicy } from './commit-policy.js';
export type { RemoteSites } from './create-remote-sites.js';
