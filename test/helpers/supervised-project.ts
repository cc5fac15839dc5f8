/**
 * The project of the supervised-try tests with real clients (test/run/supervised-real-*.test.ts):
 * a user's repository with Baton as a dev dependency (its bin linked), a one-task plan, git, and
 * the scripted model's answers: a session by hand fails a listing, a supervised try writes done.txt.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { type AgentSessionData, openLedger } from '../../src/ledger/index.js';
import { runBaton } from './cli.js';
import { removeHookProject } from './hook-jobs-done.js';
import { clientTools, type Respond, say } from './model-server/index.js';

/** The repository's own bin, as a user's node_modules/.bin/baton links it. */
export const BATON = fileURLToPath(new URL('../../bin/baton.js', import.meta.url));
/** The folder the hand-run session lists (and fails to). */
export const MISSING_DIR = '/nonexistent-baton-dir';

const PLAN = `tasks:
  - id: done-file
    title: Mark it done
    instructions: Create done.txt containing "done".
    acceptance_criteria:
      - description: done.txt exists
        check: test -f done.txt
`;

/**
 * A user's project: git, Baton as a dev dependency (its bin linked), the plan and config ignored,
 * and `clientDir` (the client's project folder: `.claude/`, `.gemini/`) too. Its removal is pushed
 * on `cleanups`.
 */
export function supervisedProject(clientDir: string, cleanups: Array<() => void | Promise<void>>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-supervised-real-'));
  cleanups.push(() => removeHookProject(dir));
  mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(BATON, path.join(dir, 'node_modules', '.bin', 'baton'));
  writeFileSync(path.join(dir, '.gitignore'), `.baton/\nnode_modules/\n${clientDir}/\nplan.yaml\nbaton.config.json\n`);
  writeFileSync(path.join(dir, 'plan.yaml'), PLAN);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'start');
  return dir;
}

/** The model: a hand-run session fails a listing; a supervised try (its prompt is a Baton task prompt) writes done.txt. */
export function supervisedScript(repo: string): Respond {
  return (v) => {
    const tools = clientTools(v.client, { cwd: repo });
    if (v.text.includes('## Task ID\ndone-file')) {
      return v.toolResults.length === 0 ? tools.writeFile('done.txt', 'done\n') : say('Created done.txt.');
    }
    if (v.prompt.includes('list the missing folder')) {
      return v.toolResults.length === 0 ? tools.runShell(`ls ${MISSING_DIR}`) : say('The listing failed.');
    }
    return say('Noted.');
  };
}

/** How many times `marker` occurs in `text`. */
export const copies = (text: string, marker: string): number => text.split(marker).length - 1;

/** Opens the project's SQLite ledger, reads, closes. */
export async function readLedger<T>(repo: string, read: (ledger: Awaited<ReturnType<typeof openLedger>>) => Promise<T>): Promise<T> {
  const ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: repo });
  try {
    return await read(ledger);
  } finally {
    await ledger.close();
  }
}

/**
 * An import of the client's own session files (`baton sessions`, with the client's HOME) keeps the
 * supervised try linked, not a second session: listed once, marked with its task and try, no turn of its own.
 */
export async function expectListedAsTry(repo: string, home: string, supervisedId: string): Promise<void> {
  const listed = await runBaton(['sessions', '--json'], { cwd: repo, env: { ...process.env, HOME: home } });
  expect(listed.code, listed.stderr).toBe(0);
  const rows = listed.json<{ sessions: Array<{ id: string; supervised: unknown }> }>().sessions;
  expect(rows.filter((r) => r.supervised !== null)).toEqual([
    expect.objectContaining({ id: supervisedId, supervised: { task_id: 'done-file', attempt: 1 } }),
  ]);
  const after = await readLedger(repo, (ledger) => ledger.getRecord<AgentSessionData>('agent_sessions', supervisedId));
  expect(after?.data.supervised).toEqual({ taskId: 'done-file', attempt: 1 });
  const turns = await readLedger(repo, async (ledger) => (await ledger.listDispatches({ taskId: supervisedId, limit: 10 })).items);
  expect(turns).toEqual([]);
}
