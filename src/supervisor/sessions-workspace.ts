import { sessionWorkspace } from '../sessions/light.js';

const resolved = new Map<string, Promise<string>>();

/**
 * The workspace agent CLI sessions of `dir` are recorded under (sessions' sessionWorkspace: the
 * folder holding `.baton/`, else the git root, else `dir`), resolved once per folder.
 */
export function sessionsWorkspaceOf(dir: string): Promise<string> {
  let found = resolved.get(dir);
  if (!found) {
    found = sessionWorkspace(dir);
    resolved.set(dir, found);
  }
  return found;
}
