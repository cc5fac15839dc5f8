import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { BatonError } from '../errors/index.js';

/**
 * Resolves `relative` inside `root` and follows symlinks; throws PATH_OUTSIDE_WORKSPACE when the
 * path, or the file a symlink points to, lies outside the workspace (`../`, absolute paths, links
 * to /etc). The returned path is the real one, safe to read.
 */
export async function resolveInsideWorkspace(root: string, relative: string): Promise<string> {
  const realRoot = await realpath(root);
  const lexical = path.resolve(realRoot, relative);
  if (!isInside(realRoot, lexical)) throw outside(relative);
  const real = await realpath(lexical);
  if (!isInside(realRoot, real)) throw outside(relative);
  return real;
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function outside(relative: string): BatonError {
  return new BatonError('PATH_OUTSIDE_WORKSPACE', `Refusing "${relative}": it resolves outside the workspace.`, {
    details: { path: relative },
  });
}
