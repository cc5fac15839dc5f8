import { closeSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import type { Ledger } from '../ledger/index.js';
import { foldSession } from './fold-session.js';
import { readHookState } from './hook-state.js';
import type { JournalEntry } from './types.js';

/** @default 5: other sessions' leftovers one hook folds at most (the rest wait for the next hook). */
const MAX_LEFTOVERS = 5;

/**
 * Folds what other sessions of the workspace left behind and nobody is folding: a batch whose
 * fold died midway (its folding file, its lock free or held by a dead process), or a journal
 * that ends with its session's end (a SessionEnd that could not fold in time). Their files are
 * not measured (the workspace has moved on). A journal of a session still running is left alone:
 * its own next hook folds it. Returns the state files' names folded for.
 */
export async function foldLeftovers(
  ledger: Ledger,
  workspace: string,
  sessionsDir: string,
  currentState: string,
  now: number,
): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(sessionsDir);
  } catch {
    return [];
  }
  const bases = new Set<string>();
  for (const name of names) {
    const folding = /^(.+)\.folding\.\d+\.jsonl$/.exec(name);
    if (folding?.[1]) bases.add(folding[1]);
    else if (name.endsWith('.jsonl') && endsWithEnd(path.join(sessionsDir, name))) bases.add(name.slice(0, -'.jsonl'.length));
  }
  const folded: string[] = [];
  for (const base of [...bases].slice(0, MAX_LEFTOVERS)) {
    const stateFile = path.join(sessionsDir, `${base}.json`);
    if (stateFile === currentState) continue;
    const state = readHookState(stateFile);
    if (!state) continue;
    const input = { client: state.client, event: 'session-end' as const, sessionId: state.sessionId, cwd: workspace };
    if ((await foldSession(ledger, workspace, input, now, { measure: false })).folded) folded.push(base);
  }
  return folded;
}

/** Whether a journal's last line is a session's end. */
function endsWithEnd(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, 512);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const last = buffer.toString('utf8').trimEnd().split('\n').pop() ?? '';
    return (JSON.parse(last) as JournalEntry).kind === 'end';
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
