import { findBatonWorkspace } from '../hooks/light.js';
import { workspaceRoots } from './discover-roots.js';

export interface SessionWorkspace {
  /** The workspace sessions are recorded under: the folder holding `.baton/`, else the git root, else the folder. */
  workspace: string;
  /** The folders whose sessions are the workspace's (workspaceRoots: the git root, the folder, every worktree). */
  roots: string[];
}

/**
 * Where the agent CLI sessions of `cwd` belong, as the hooks, `baton sessions`, `baton run` and
 * `baton worker` name it, with the roots an import of them reads (one git walk for both).
 */
export async function sessionWorkspaceOf(cwd: string): Promise<SessionWorkspace> {
  const roots = await workspaceRoots(cwd);
  return { workspace: findBatonWorkspace(cwd) ?? roots[0] ?? cwd, roots };
}

/** The workspace the sessions of `cwd` are recorded under (sessionWorkspaceOf's `workspace`). */
export async function sessionWorkspace(cwd: string): Promise<string> {
  return findBatonWorkspace(cwd) ?? (await workspaceRoots(cwd))[0] ?? cwd;
}
