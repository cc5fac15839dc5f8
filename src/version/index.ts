import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root folder: two folders up from this module in src/version (tests, tsx),
 * dist/version (the library) and dist/cli-bundle (the bundled `baton` command, where this module
 * is inlined into a chunk at the same depth).
 */
export const PACKAGE_ROOT: string = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Baton's version, read from package.json so there is one source. One small synchronous read,
 * so `baton --version` stays fast.
 */
export const BATON_VERSION: string = readVersion();

function readVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string') throw new Error('package.json has no "version" string');
  return manifest.version;
}
