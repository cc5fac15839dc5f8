import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBatonWorkspace, HOOKS_DIR } from './hook-paths.js';
import { parseHookInput } from './parse-hook-input.js';
import type { AgentClient, HookEvent } from './types.js';

/**
 * The events whose work no client needs before it goes on: the end of a turn (Stop, StopFailure,
 * AfterAgent: the fold) and the end of a session (SessionEnd: the fold and the close). Their hook
 * process hands the work to a detached child and exits at once, so the client waits one node start.
 */
const DETACHED_EVENTS: ReadonlySet<HookEvent> = new Set(['stop', 'session-end']);

/** @default 30 s: a job file older than this has lost its runner (killed, machine asleep): it is started again. */
export const STALE_JOB_MS = 30_000;

/** Set in a handed-off job's child: no client waits for it, so its ledger writes wait longer for a lock (with-hook-ledger.ts). */
export const JOB_ENV = 'BATON_HOOK_JOB';

/** @default 25: how often a session start looks again at the jobs still running. */
const POLL_MS = 25;

/** bin/baton.js, two folders up from this module (src/hooks/, dist/hooks/ or dist/cli-bundle/). */
const BIN = fileURLToPath(new URL('../../bin/baton.js', import.meta.url));

/** One handed-off hook call, as written to `.baton/hooks/jobs/`: what the child runs. */
export interface HookJob {
  client: AgentClient;
  event: HookEvent;
  stdin: string;
  cwd: string;
  /** When the client ran the hook: the fold's timestamps are the event's, not the child's. */
  at: number;
}

/** The folder of the hooks' handed-off jobs. */
export function jobsDir(workspace: string): string {
  return path.join(workspace, HOOKS_DIR, 'jobs');
}

/**
 * Hands a Stop or SessionEnd to a detached child (its own session, stdio ignored, so it outlives
 * the client) through a job file it removes when done. Says whether it did: not for other events,
 * under `baton run` (BATON_SUPERVISED: the run reads the record when the agent exits), with
 * BATON_HOOK_WAIT=1 (the client waits for the fold, as before), for an input that does not parse
 * (run inline, which logs why) or a folder that is not Baton's (nothing to do: handled, nothing run).
 */
export function handOffHook(job: HookJob, env: NodeJS.ProcessEnv): boolean {
  if (!DETACHED_EVENTS.has(job.event) || env.BATON_SUPERVISED || env.BATON_HOOK_WAIT === '1') return false;
  let cwd: string;
  try {
    cwd = parseHookInput(job.client, job.event, job.stdin, job.cwd).cwd;
  } catch {
    return false;
  }
  const workspace = findBatonWorkspace(cwd);
  if (!workspace) return true;
  const file = path.join(jobsDir(workspace), `${job.at}-${process.pid}-${job.event}.json`);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    // The client's own words and reply: readable by the user only, as the journal (removed when the job is done).
    writeFileSync(file, JSON.stringify(job), { mode: 0o600 });
  } catch {
    return false; // a `.baton/` that cannot be written: the hook runs inline, and logs what fails
  }
  startJob(file, job, env);
  return true;
}

function startJob(file: string, job: HookJob, env: NodeJS.ProcessEnv): void {
  const child = spawn(process.execPath, [BIN, 'hook', job.event, '--client', job.client, '--job', file], {
    cwd: job.cwd,
    env: { ...env, [JOB_ENV]: '1' },
    detached: true,
    stdio: 'ignore',
    windowsHide: true,
  });
  child.on('error', () => undefined);
  child.unref();
}

/** A job file as its child reads it; undefined when it is gone or unreadable (another child ran it). */
export function readJob(file: string): HookJob | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as HookJob;
  } catch {
    return undefined;
  }
}

export function finishJob(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // a job file that cannot be removed is rerun once stale; the fold itself is done
  }
}

/**
 * Waits (at most `maxMs`) until the workspace's handed-off jobs are done, so that a session
 * start sees the turn and the end the previous session's hooks handed off a moment ago. A job
 * older than STALE_JOB_MS lost its runner: it is started again (detached) and not waited for.
 * `onWait` hears once how many jobs are still running when there are any (a command says it waits).
 */
export async function waitForHookJobs(
  workspace: string,
  env: NodeJS.ProcessEnv,
  maxMs: number,
  onWait?: (live: number) => void,
): Promise<void> {
  const dir = jobsDir(workspace);
  const until = Date.now() + maxMs;
  for (let first = true; ; first = false) {
    const now = Date.now();
    let live = 0;
    for (const name of listJobs(dir)) {
      const file = path.join(dir, name);
      const written = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
      if (written === undefined) continue;
      if (now - written < STALE_JOB_MS) live += 1;
      else restartJob(file, env, now);
    }
    if (live === 0 || now >= until) return;
    if (first) onWait?.(live);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function listJobs(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
}

function restartJob(file: string, env: NodeJS.ProcessEnv, now: number): void {
  const job = readJob(file);
  if (!job) return finishJob(file);
  utimesSync(file, now / 1000, now / 1000);
  startJob(file, job, env);
}
