import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { locateGit, mapLimit, parsePorcelain, runGit, type WorkspaceDiff } from '../workspace/index.js';
import { batonOwnFiles } from './install-record.js';

/**
 * Files that differ from HEAD: workspace-relative path -> a signature of the file (size and
 * modification time, in nanoseconds), or '-' when deleted. A signature, not a content hash: a
 * session start measures every changed file (250 on the 50,000-file bench repository), and
 * reading them all cost more than the rest of the hook. A file rewritten with the same bytes
 * counts as changed.
 */
export interface DirtyState {
  head?: string;
  branch?: string;
  files: Record<string, string>;
  /** Status letters by path ('??' untracked, 'A.' added, '.M' changed, ...), for the context. */
  status: Record<string, string>;
}

const STAT_CONCURRENCY = 32;

/**
 * What differs from HEAD under `workspace`, with a signature of each changed file: one
 * `git status` (untracked files listed one by one) and a stat per changed file. Baton's own
 * files are left out: `.baton/`, and the settings its hooks install wrote (batonOwnFiles). Undefined outside a git work tree.
 */
export async function readDirtyState(workspace: string): Promise<DirtyState | undefined> {
  const top = locateGit(workspace)?.root;
  if (!top) return undefined;
  const { stdout } = await runGit(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'], workspace);
  const prefix = path.relative(top, path.resolve(workspace)).split(path.sep).join('/');
  const parsed = parsePorcelain(stdout);
  const own = batonOwnFiles(workspace);
  const entries = parsed.entries
    .map((entry) => ({ ...entry, path: prefix ? relativeTo(entry.path, prefix) : entry.path }))
    .filter((entry): entry is { path: string; xy: string } => entry.path !== undefined && !entry.path.startsWith('.baton/'))
    .filter((entry) => !own(entry.path));
  const hashes = await mapLimit(entries, STAT_CONCURRENCY, (entry) =>
    entry.xy.includes('D') ? Promise.resolve(undefined) : signature(path.join(workspace, entry.path)),
  );
  const files: Record<string, string> = {};
  const status: Record<string, string> = {};
  entries.forEach((entry, i) => {
    files[entry.path] = hashes[i] ?? '-';
    status[entry.path] = entry.xy;
  });
  return { head: parsed.head, branch: parsed.branch, files, status };
}

/**
 * What changed between two measurements: a path dirty now and clean before is new work (created
 * when git does not track it, deleted when gone, else updated); a path dirty in both counts when
 * its content differs; a path dirty before and clean now was reverted or committed. When HEAD
 * moved (the agent committed), the committed paths come from `git diff --name-status`.
 */
export async function diffDirtyStates(
  workspace: string,
  before: Pick<DirtyState, 'head' | 'files'>,
  after: DirtyState,
): Promise<WorkspaceDiff> {
  const created = new Set<string>();
  const updated = new Set<string>();
  const deleted = new Set<string>();
  for (const [file, hash] of Object.entries(after.files)) {
    const previous = before.files[file];
    if (previous === hash) continue;
    const xy = after.status[file] ?? '';
    if (hash === '-') deleted.add(file);
    else if (previous === undefined && (xy === '??' || xy.startsWith('A'))) created.add(file);
    else updated.add(file);
  }
  for (const file of Object.keys(before.files)) if (!(file in after.files)) updated.add(file);
  if (before.head && after.head && before.head !== after.head) {
    for (const [letter, file] of await committedChanges(workspace, before.head, after.head)) {
      if (file in after.files) continue;
      (letter === 'A' ? created : letter === 'D' ? deleted : updated).add(file);
    }
  }
  for (const file of [...created, ...deleted]) updated.delete(file);
  return { created: [...created].sort(), updated: [...updated].sort(), deleted: [...deleted].sort() };
}

async function committedChanges(workspace: string, from: string, to: string): Promise<Array<[string, string]>> {
  const { stdout } = await runGit(['diff', '--name-status', '--no-renames', '--relative', '-z', from, to], workspace).catch(() => ({
    stdout: '',
  }));
  const parts = stdout.split('\0');
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const file = parts[i + 1] ?? '';
    if (file && !file.startsWith('.baton/')) out.push([(parts[i] ?? 'M').charAt(0), file]);
  }
  return out;
}

async function signature(file: string): Promise<string | undefined> {
  try {
    const info = await lstat(file, { bigint: true });
    return `${info.size}:${info.mtimeNs}`;
  } catch {
    return undefined;
  }
}

function relativeTo(file: string, prefix: string): string | undefined {
  return file.startsWith(`${prefix}/`) ? file.slice(prefix.length + 1) : undefined;
}
