import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ignoreRules } from './ignore-rules.js';

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
