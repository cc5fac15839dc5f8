import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readInstalled, sha256 } from './install-record.js';

/**
 * Which changed files are Baton's own, never "changes to review": a settings file exactly as
 * `baton hooks install` wrote it (its sha256 in `.baton/hooks/installed.json`), and the
 * `FILE.baton-backup` copies older releases left beside a settings file. (`.baton/` itself is left
 * out by the measurement.) Paths are workspace-relative with `/`.
 */
export function batonOwnFiles(workspace: string): (file: string) => boolean {
  const own = new Set<string>();
  for (const [file, entry] of Object.entries(readInstalled(workspace))) {
    const relative = path.relative(workspace, file).split(path.sep).join('/');
    if (relative.startsWith('../') || path.isAbsolute(relative)) continue;
    if (sha256Of(file) === entry.writtenSha256) own.add(relative);
  }
  return (file) => own.has(file) || file.endsWith('.baton-backup');
}

function sha256Of(file: string): string | undefined {
  try {
    return sha256(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
