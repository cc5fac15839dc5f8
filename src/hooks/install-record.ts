import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { copyFile, constants, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HOOKS_DIR } from './hook-paths.js';

/** What one install wrote to one file, so uninstall can put back exactly what was there. */
export interface InstalledFile {
  /** The file did not exist before the first install. */
  created: boolean;
  /** Its folder did not exist either. */
  createdDir: boolean;
  /** The copy of the content before the first install (absent when created). */
  backup?: string;
  /** sha256 of the content before the first install. */
  originalSha256?: string;
  /** sha256 of the content the last install wrote. */
  writtenSha256: string;
}

/** `.baton/hooks/installed.json`: per settings file (absolute path), what Baton's install wrote. */
export type InstalledRecord = Record<string, InstalledFile>;

export function installedFile(workspace: string): string {
  return path.join(workspace, HOOKS_DIR, 'installed.json');
}

export function backupsDir(workspace: string): string {
  return path.join(workspace, HOOKS_DIR, 'backups');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The record, or an empty one when there is none (or it is not a JSON object). */
export function readInstalled(workspace: string): InstalledRecord {
  try {
    const json = JSON.parse(readFileSync(installedFile(workspace), 'utf8')) as unknown;
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return {};
    return Object.assign(Object.create(null) as InstalledRecord, json);
  } catch {
    return {};
  }
}

export async function writeInstalled(workspace: string, record: InstalledRecord): Promise<void> {
  await mkdir(path.dirname(installedFile(workspace)), { recursive: true });
  await writeFile(installedFile(workspace), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * Copies `file` into `.baton/hooks/backups/` under a new name (its path, then a number): a backup
 * is never overwritten. The copy keeps the file's mode. Returns its path.
 */
export async function backUp(workspace: string, file: string): Promise<string> {
  const dir = backupsDir(workspace);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const base = path
    .resolve(file)
    .replace(/^[/\\]+/, '')
    .replace(/[/\\:]+/g, '__');
  for (let n = 1; ; n++) {
    const backup = path.join(dir, `${base}.${n}`);
    try {
      await copyFile(file, backup, constants.COPYFILE_EXCL);
      return backup;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

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
