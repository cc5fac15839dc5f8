import { readdirSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where the "repositories" come from by default: the newest Python standard library under /usr/lib
 * (Debian and most Linux distributions).
 */
export const DEFAULT_SOURCE_ROOTS = pythonStdlibRoots();

function pythonStdlibRoots(): string[] {
  try {
    const found = readdirSync('/usr/lib').filter((name) => /^python3\.\d+$/.test(name));
    found.sort((a, b) => Number(b.split('.')[1]) - Number(a.split('.')[1]));
    return found.slice(0, 1).map((name) => `/usr/lib/${name}`);
  } catch {
    return [];
  }
}

/** Package folders that are not a plausible project (tests, generated tables, tooling, bundles). */
const SKIP_DIRS = new Set([
  'test',
  'tests',
  'encodings',
  'pydoc_data',
  'site-packages',
  'dist-packages',
  'lib-dynload',
  '__pycache__',
  'ensurepip',
  'idle_test',
  'turtledemo',
  'venv',
  'lib2to3',
]);
const MIN_FILES = 3;
const MIN_LINES = 1500;

/** One real source file, by its path inside the synthetic repository. */
export interface RepoFile {
  /** e.g. `email/_header_value_parser.py` */
  rel: string;
  lines: string[];
}

/** A package subtree on disk treated as a repository checked out at `/python__<pkg>`. */
export interface SourceRepo {
  /** The package folder name, e.g. `email`. */
  pkg: string;
  /** The folder on disk. */
  dir: string;
  /** Repository root as the agent sees it. */
  root: string;
  /** Sorted by path. */
  files: RepoFile[];
  /** Sub-folders (relative to the repository root), sorted. */
  dirs: string[];
}

/** The candidate package folders under the roots, sorted, so a seed always maps to the same one. */
export async function listPackageDirs(roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const root of roots) {
    const names = await readdir(root).catch(() => [] as string[]);
    for (const name of names.sort()) {
      if (SKIP_DIRS.has(name) || name.startsWith('.') || name.startsWith('config-')) continue;
      const dir = path.join(root, name);
      if (!(await stat(dir).catch(() => undefined))?.isDirectory()) continue;
      const files = await pythonFiles(dir);
      if (files.length < MIN_FILES) continue;
      let lines = 0;
      for (const f of files) lines += (await readFile(f, 'utf8')).split('\n').length;
      if (lines >= MIN_LINES) out.push(dir);
    }
  }
  return out;
}

/** Reads a package folder as a repository. */
export async function loadRepo(dir: string): Promise<SourceRepo> {
  const pkg = path.basename(dir);
  const parent = path.dirname(dir);
  const files: RepoFile[] = [];
  for (const f of await pythonFiles(dir)) {
    files.push({ rel: path.relative(parent, f).split(path.sep).join('/'), lines: splitLines(await readFile(f, 'utf8')) });
  }
  const dirs = [...new Set(files.map((f) => path.posix.dirname(f.rel)))].sort();
  return { pkg, dir, root: `/python__${pkg}`, files, dirs };
}

/** Lines as `awk 'END {print NR}'` counts them: a final newline does not start another line. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l) => l.replace(/\r$/, ''));
}

async function pythonFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) out.push(...(await pythonFiles(path.join(dir, e.name))));
    } else if (e.isFile() && e.name.endsWith('.py')) out.push(path.join(dir, e.name));
  }
  return out;
}
