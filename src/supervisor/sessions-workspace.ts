import { findBatonWorkspace } from '../hooks/light.js';
import { workspaceRoots } from '../sessions/light.js';

const resolved = new Map<string, Promise<string>>();

/**
 * The workspace agent CLI sessions of `dir` are recorded under, as the hooks and `baton sessions`
 * name it: the folder holding `.baton/`, else the git root, else `dir`. Resolved once per folder.
 */
export function sessionsWorkspaceOf(dir: string): Promise<string> {
  let found = resolved.get(dir);
  if (!found) {
    found = (async () => findBatonWorkspace(dir) ?? (await workspaceRoots(dir))[0] ?? dir)();
    resolved.set(dir, found);
  }
  return found;
}
