import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The 38 real public sessions (not in the repository, nor in CI's clean clone: tests over them skip). */
export const SHARED_SESSIONS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'agent-sessions',
);
export const sharedSessionsPresent = existsSync(SHARED_SESSIONS);
if (!sharedSessionsPresent)
  console.warn(`[skip] ${SHARED_SESSIONS} is absent (as in a clean clone): tests over the real public sessions skipped.`);

/** The files of one client's folder (claude-code, codex, gemini-cli, copilot-cli). */
export function sharedSessionFiles(folder: string): string[] {
  const dir = path.join(SHARED_SESSIONS, folder);
  return existsSync(dir) ? readdirSync(dir).map((f) => path.join(dir, f)) : [];
}

/** count.mjs's counts for a file (its definitions are the fixtures' own: calls, edits, failed). */
export async function oracleCount(file: string): Promise<{ calls: number; edits: number; failed: number }> {
  const { readFileSync } = await import('node:fs');
  const mod = (await import(path.join(SHARED_SESSIONS, 'count.mjs'))) as {
    count(text: string): { calls: number; edits: number; failed: number };
  };
  return mod.count(readFileSync(file, 'utf8'));
}
