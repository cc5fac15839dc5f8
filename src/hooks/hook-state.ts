import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HookInput, HookSessionState } from './types.js';

/** A session's state, or undefined when there is none yet (or it cannot be read: it is rebuilt). */
export function readHookState(file: string): HookSessionState | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as HookSessionState;
    return typeof value === 'object' && value !== null && typeof value.foldedBytes === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a session's state whole (a temporary file renamed over the old one). */
export function writeHookState(file: string, state: HookSessionState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`);
  renameSync(temporary, file);
}

/** State for a session whose start Baton did not see (hooks installed mid-session, or a failed start). */
export function freshState(input: HookInput, now: number): HookSessionState {
  return { client: input.client, sessionId: input.sessionId, foldedBytes: 0, baseline: {}, startedAt: now, model: input.model };
}
