import { readFileSync } from 'node:fs';

/**
 * Baton's version, read from package.json so there is one source. The path is the same from
 * src/version (tests, tsx) and dist/version (the built package): two folders up. One small
 * synchronous read, so `baton --version` stays fast.
 */
export const BATON_VERSION: string = readVersion();

function readVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string') throw new Error('package.json has no "version" string');
  return manifest.version;
}
