// The light face of workspace/: running git, without the snapshot code. index.ts re-exports it all;
// refresh/light.ts says why a module has a second face.
export { DEFAULT_GIT_MAX_BYTES, git, gitOk, runGit } from './run-git.js';
export type { GitOptions, GitOutput, GitResult } from './run-git.js';
