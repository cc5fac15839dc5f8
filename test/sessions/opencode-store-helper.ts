import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteDatabase } from '../../src/ledger/sqlite/index.js';

/** The real OpenCode 1.18.33 database (test/fixtures/agent-sessions/opencode/README.md). */
export const OPENCODE_DB_FIXTURE = fileURLToPath(new URL('../fixtures/agent-sessions/opencode/opencode.db', import.meta.url));
/** Its session with 2 prompts and 8 calls, its quota-ended session, and the sub-agent session of the first. */
export const OPENCODE_MAIN = 'ses_dda3fa255ffe5nnsw3TByS0kT0';
export const OPENCODE_LIMITED = 'ses_dda3e55b4ffelXjVSVGRuCfpAA';
export const OPENCODE_CHILD = 'ses_dda3f1852ffeROiOm7oKGsD4GB';

/**
 * Copies the fixture database to `file` as if its sessions had run where the caller says: the
 * main session and its sub-agent in `workspace`, the quota-ended one in `elsewhere`.
 */
export async function layOutOpencodeDb(file: string, workspace: string, elsewhere: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await copyFile(OPENCODE_DB_FIXTURE, file);
  const db = openSqliteDatabase(file);
  const move = db.prepare('UPDATE session SET directory = ? WHERE id = ?');
  move.run(workspace, OPENCODE_MAIN);
  move.run(workspace, OPENCODE_CHILD);
  move.run(elsewhere, OPENCODE_LIMITED);
  db.close();
  return file;
}
