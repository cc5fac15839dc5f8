import path from 'node:path';
import { BatonError } from '../errors/index.js';
import { hashFile, mapLimit } from './hash-file.js';
import { parsePorcelain } from './porcelain.js';
import { runGit } from './run-git.js';

/** Large enough for the index listing of a very big repository. */
const MAX_GIT_OUTPUT_BYTES = 512 * 1024 * 1024;
const HASH_CONCURRENCY = 16;

async function git(cwd: string, args: string[], niceness = 0): Promise<string> {
  // runGit sets GIT_OPTIONAL_LOCKS=0: never take index.lock while an agent may be running git itself.
  const { stdout, truncated } = await runGit(args, cwd, MAX_GIT_OUTPUT_BYTES, niceness);
  // A partial listing would misreport what the run changed: better no measurement than a wrong one.
  if (truncated) throw new BatonError('INTERNAL', `git ${args[0]} printed more than ${MAX_GIT_OUTPUT_BYTES} bytes in ${cwd}`);
  return stdout;
}

/**
 * The folder's path inside its git work tree ("" at the top, "sub/dir/" below), or undefined
 * outside git or in a folder git ignores.
 */
export async function gitPrefix(dir: string): Promise<string | undefined> {
  try {
    // One git run for both answers: a workspace is measured before and after every attempt.
    const [inside, prefix = ''] = (await git(dir, ['rev-parse', '--is-inside-work-tree', '--show-prefix'])).split('\n');
    if (inside !== 'true') return undefined;
    // An ignored folder inside a repository is invisible to git status: measure it as a plain folder.
    if (prefix !== '' && (await isIgnored(dir))) return undefined;
    return prefix;
  } catch {
    return undefined;
  }
}

async function isIgnored(dir: string): Promise<boolean> {
  try {
    await git(dir, ['check-ignore', '-q', '.']);
    return true;
  } catch {
    // Exit 1: not ignored.
    return false;
  }
}

/** What gitFiles reads from git: the index listing and the status of `dir`. */
export function startGitListing(dir: string, niceness = 0): Promise<[string, string]> {
  return Promise.all([
    git(dir, ['ls-files', '-s', '-z', '--full-name', '--', '.'], niceness),
    git(dir, ['status', '--porcelain=v2', '-z', '--untracked-files=all', '--', '.'], niceness),
  ]);
}

/**
 * Content of every non-ignored file under dir, from git: index blob ids for files git reports
 * clean, and fresh content hashes for every path `git status --porcelain=v2` lists (modified,
 * staged, renamed, untracked), so a file already dirty before a run and changed again still shows
 * a new hash. Keys are relative to dir.
 */
export async function gitFiles(dir: string, prefix: string, listing: Promise<[string, string]>): Promise<Map<string, string>> {
  const [indexText, statusText] = await listing;
  const files = new Map<string, string>();
  for (const record of indexText.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab === -1) continue;
    const [, sha] = record.slice(0, tab).split(' ');
    const rel = relative(record.slice(tab + 1), prefix);
    if (rel !== undefined && sha !== undefined) files.set(rel, sha);
  }
  // A rename's original path too: it is gone from the folder.
  const changed = parsePorcelain(statusText)
    .entries.flatMap((entry) => (entry.from === undefined ? [entry.path] : [entry.path, entry.from]))
    .map((p) => relative(p, prefix))
    .filter((p): p is string => p !== undefined);
  const hashes = await mapLimit(changed, HASH_CONCURRENCY, (rel) => hashFile(path.join(dir, rel)));
  changed.forEach((rel, i) => {
    const hash = hashes[i];
    if (hash === undefined) files.delete(rel);
    else files.set(rel, hash);
  });
  return files;
}

/** Repository-root path -> dir-relative path; Baton's own state folder is never measured. */
function relative(repoPath: string, prefix: string): string | undefined {
  if (!repoPath.startsWith(prefix)) return undefined;
  const rel = repoPath.slice(prefix.length);
  if (rel === '' || rel === '.baton' || rel.startsWith('.baton/')) return undefined;
  return rel;
}
