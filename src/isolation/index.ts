export { safeRefPart, TASK_BRANCH_PREFIX, taskBranch, taskCommitMessage, taskOfSubject } from './task-branch.js';
export { createWorktreeSites, MAX_CONFLICT_RERUNS } from './worktree-sites.js';
export type { IntegrateResult } from './integrate-task.js';
export type { WorktreeSitesOptions } from './worktree-sites.js';
export { createRemoteSites, MAX_PUSH_RACES, MAX_TAKEN_ALONG } from './remote-sites.js';
export { MAX_SHARED_PACK_BYTES } from './shared-tips.js';
export type { RemoteSites, RemoteSitesOptions } from './remote-sites.js';
export type { EndTurn, IntegrationOutcome, IntegrationTurns, OfferedCommit, SharedTip } from './integration-turns.js';
