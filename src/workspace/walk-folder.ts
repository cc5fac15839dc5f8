import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Folders never measured: dependencies, VCS data, Baton's own state, build output. */
const DEFAULT_IGNORED_DIRS: readonly string[] = ['node_modules', '.git', '.baton', 'dist'];

interface Rule {
  regex: RegExp;
  dirOnly: boolean;
  /** Matched against the whole relative path, else against the base name. */
  anchored: boolean;
}

/**
 * .gitignore-style matching for a plain folder: `name`, `*.log`, `dir/`, `/rooted`, `a/**\/b`.
 * Negations (`!`) are not supported and are skipped; a git repository uses git's own rules.
 * Returns whether a workspace-relative path (forward slashes) is ignored.
 */
function ignoreRules(patterns: readonly string[]): (relPath: string, isDir: boolean) => boolean {
  const rules = patterns.map(parsePattern).filter((rule) => rule !== undefined);
  return (relPath, isDir) => {
    const base = relPath.slice(relPath.lastIndexOf('/') + 1);
    if (isDir && DEFAULT_IGNORED_DIRS.includes(base)) return true;
    return rules.some((rule) => (!rule.dirOnly || isDir) && rule.regex.test(rule.anchored ? relPath : base));
  };
}

function parsePattern(line: string): Rule | undefined {
  let pattern = line.trim();
  if (pattern === '' || pattern.startsWith('#') || pattern.startsWith('!')) return undefined;
  const dirOnly = pattern.endsWith('/');
  if (dirOnly) pattern = pattern.slice(0, -1);
  const anchored = pattern.includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  if (pattern === '') return undefined;
  return { regex: new RegExp(`^${globToRegex(pattern)}$`), dirOnly, anchored };
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      // "**/" matches zero or more folders; a trailing "**" matches everything below.
      if (glob[i + 2] === '/') {
        out += '(?:.*/)?';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return out;
}

/**
 * Every file under root (workspace-relative, forward slashes), skipping DEFAULT_IGNORED_DIRS and
 * the root .gitignore's simple patterns. Symlinks are listed, never followed.
 */
export async function walkFolder(root: string): Promise<string[]> {
  const ignores = ignoreRules(await readGitignore(root));
  const files: string[] = [];
  const visit = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const isDir = entry.isDirectory();
      if (ignores(child, isDir)) continue;
      if (isDir) await visit(child);
      else if (entry.isFile() || entry.isSymbolicLink()) files.push(child);
    }
  };
  await visit('');
  return files;
}

async function readGitignore(root: string): Promise<string[]> {
  try {
    return (await readFile(path.join(root, '.gitignore'), 'utf8')).split(/\r?\n/);
  } catch {
    return [];
  }
}
