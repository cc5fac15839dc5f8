import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** @default 15_000: a fold lock older than this is taken over when its holder cannot be checked (another host). */
export const STALE_LOCK_MS = 15_000;
/** @default 25: how often a hook waiting for a fold lock looks again. */
const POLL_MS = 25;

/** Who holds a fold lock: written into the lock file. */
export interface LockHolder {
  pid: number;
  host: string;
  /** The process's start time as the kernel counts it (Linux: /proc/PID/stat field 22), to tell a reused pid apart. */
  start?: string;
  at: number;
}

/** A lock taken, and what became of the one before it. */
export interface HeldLock {
  release(): void;
  /** The holder whose lock was taken over because it had died (a fold killed midway). */
  tookOverFrom?: LockHolder;
}

/**
 * Takes a session's fold lock (a file created exclusively, holding this process's pid, host and
 * start time). A lock whose holder died (its pid gone, or reused by a process that started
 * later) is taken over at once; one whose holder cannot be checked (another host, an unreadable
 * file) after STALE_LOCK_MS. While a live holder keeps it, waits up to `waitMs`, then returns
 * undefined: that holder is folding the same session.
 */
export async function acquireFoldLock(file: string, now: () => number, waitMs = 0): Promise<HeldLock | undefined> {
  mkdirSync(path.dirname(file), { recursive: true });
  const until = now() + waitMs;
  for (;;) {
    const taken = tryTake(file, now());
    if (taken) return taken;
    if (now() >= until) return undefined;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function tryTake(file: string, now: number): HeldLock | undefined {
  let tookOverFrom: LockHolder | undefined;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx');
      try {
        writeSync(fd, JSON.stringify(ownIdentity(now)));
      } finally {
        closeSync(fd);
      }
      return { release: () => removeQuietly(file), ...(tookOverFrom ? { tookOverFrom } : {}) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const text = readQuietly(file);
      if (text === undefined) continue; // released in between: try again
      const holder = parseHolder(text);
      if (!isAbandoned(file, holder, now)) return undefined;
      // Only the lock judged dead is removed: a hook that took it over meanwhile wrote another.
      if (readQuietly(file) === text) removeQuietly(file);
      tookOverFrom = holder;
    }
  }
  return undefined;
}

/** Whether a lock's holder is gone: dead or reused pid on this host; else older than STALE_LOCK_MS. */
function isAbandoned(file: string, holder: LockHolder | undefined, now: number): boolean {
  if (holder && holder.host === os.hostname()) {
    if (!isAlive(holder.pid)) return true;
    const start = processStart(holder.pid);
    if (start !== undefined && holder.start !== undefined) return start !== holder.start;
  }
  const at = holder?.at ?? statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return now - at >= STALE_LOCK_MS;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let ownStart: string | undefined | null = null;

function ownIdentity(now: number): LockHolder {
  if (ownStart === null) ownStart = processStart(process.pid);
  return { pid: process.pid, host: os.hostname(), ...(ownStart === undefined ? {} : { start: ownStart }), at: now };
}

/** A process's start time in clock ticks since boot (Linux); undefined where /proc does not say. */
function processStart(pid: number): string | undefined {
  const stat = readQuietly(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    return typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.at === 'number'
      ? (value as LockHolder)
      : undefined;
  } catch {
    return undefined;
  }
}

function readQuietly(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // a lock the hook cannot remove is taken over once stale; the hook itself goes on
  }
}
