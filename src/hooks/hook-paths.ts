import { createRequire } from 'node:module';
import { statSync } from 'node:fs';
import path from 'node:path';
import { locateGit } from '../workspace/light.js';

/** Where the hooks keep their files, under the workspace's `.baton/`. */
export const HOOKS_DIR = path.join('.baton', 'hooks');

/**
 * The workspace a hook works for: the nearest folder at or above `cwd` that holds a `.baton/`
 * folder, not looking above a repository's root (a folder with `.git`). Undefined when there is
 * none: Baton was never set up there (`baton hooks install` or `baton init` makes `.baton/`), so
 * the hook does nothing at all (user-level hooks fire in every project the client opens).
 */
export function findBatonWorkspace(cwd: string): string | undefined {
  const top = locateGit(cwd)?.root;
  let dir = path.resolve(cwd);
  for (;;) {
    if (statSync(path.join(dir, '.baton'), { throwIfNoEntry: false })?.isDirectory()) return dir;
    const parent = path.dirname(dir);
    if (dir === top || parent === dir) return undefined;
    dir = parent;
  }
}

/** The files of one client session under `.baton/hooks/sessions/`. */
export interface SessionFiles {
  dir: string;
  /** Append-only journal of the cheap hooks. */
  journal: string;
  /** The journal taken by a fold (renamed, numbered by its batch), until that fold has written it to the ledger. */
  folding: (batch: number) => string;
  /** The name every folding file of the session starts with. */
  foldingPrefix: string;
  /** HookSessionState as JSON. */
  state: string;
  /** Held while a fold runs. */
  lock: string;
}

export function sessionFiles(workspace: string, ledgerSessionId: string): SessionFiles {
  const dir = path.join(workspace, HOOKS_DIR, 'sessions');
  const base = path.join(dir, safeName(ledgerSessionId));
  return {
    dir,
    journal: `${base}.jsonl`,
    folding: (batch) => `${base}.folding.${batch}.jsonl`,
    foldingPrefix: `${path.basename(base)}.folding.`,
    state: `${base}.json`,
    lock: `${base}.lock`,
  };
}

/** The hooks' own log: why a hook answered nothing. */
export function hookLogFile(workspace: string): string {
  return path.join(workspace, HOOKS_DIR, 'hooks.log');
}

/**
 * A session id as a file name. Ids are UUIDs (letters, digits, dashes after the client's prefix),
 * kept as they are; any other id is reduced to [A-Za-z0-9-] and gets a hash of the whole id, so
 * two ids that reduce alike (`a/b` and `a_b`) never share a journal. A reduced name always holds
 * an underscore, which a kept one never does.
 */
export function safeName(id: string): string {
  if (/^[A-Za-z0-9-]{1,120}$/.test(id)) return id;
  // node:crypto loads only here (a rare id), not in every hook process (~10 ms of its start).
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const digest = createHash('sha256').update(id).digest('hex').slice(0, 16);
  return `${id.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 80)}_${digest}`;
}
