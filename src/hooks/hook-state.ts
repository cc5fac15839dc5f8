import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HookSessionState } from './types.js';

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

/** @default 15_000: a fold lock older than this is taken over (its holder died). */
export const STALE_LOCK_MS = 15_000;

/**
 * Takes a session's fold lock (a file created exclusively), or returns undefined when another
 * hook of the session holds it: that hook folds the same journal, so this one has nothing to add.
 * A lock left by a killed hook is taken over after STALE_LOCK_MS.
 */
export function tryLock(file: string, now: number): (() => void) | undefined {
  mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      closeSync(openSync(file, 'wx'));
      return () => {
        try {
          unlinkSync(file);
        } catch {
          // already gone: nothing to release
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = statSync(file, { throwIfNoEntry: false });
      if (held && now - held.mtimeMs < STALE_LOCK_MS) return undefined;
      try {
        unlinkSync(file);
      } catch {
        // another hook took it over first
      }
    }
  }
  return undefined;
}
