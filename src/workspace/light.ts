// The light face of workspace/: running git and finding a repository, without the snapshot code. index.ts re-exports it all;
// refresh/light.ts says why a module has a second face.
export { git, gitOk, runGit } from './run-git.js';

export { locateGit } from './locate-git.js';
export type { GitLocation } from './locate-git.js';
