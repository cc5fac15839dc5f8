/**
 * Runs `baton` from a packed consumer install as a child process, the way a user's shell does:
 * the test runner's real process.env plus what a test plants. A server command is stopped with
 * SIGTERM once its ready line is out. At most `POOL_SIZE` children run at once.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Children at once: the machine has 2 cores shared with other work. */
const POOL_SIZE = 4;
/** A hung child is killed after this long (a safety net: nothing waits for it). */
const SAFETY_KILL_MS = 120_000;

export interface ChildRun {
  args: string[];
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when the safety net killed it. */
  hung: boolean;
}

export interface ChildSpec {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin?: string;
  /** A server: its output is ready when this returns true; then it is sent SIGTERM. */
  ready?: (stdout: string, stderr: string) => boolean;
}

let running = 0;
const waiting: Array<() => void> = [];

async function slot(): Promise<() => void> {
  if (running >= POOL_SIZE) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  return () => {
    running -= 1;
    waiting.shift()?.();
  };
}

/** Runs `node <bin> ...args` in the pool and resolves when the child has closed. */
export async function runChild(bin: string, spec: ChildSpec): Promise<ChildRun> {
  const release = await slot();
  try {
    return await new Promise<ChildRun>((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...spec.args], { cwd: spec.cwd, env: spec.env, stdio: 'pipe' });
      let stdout = '';
      let stderr = '';
      let hung = false;
      let stopping = false;
      const safety = setTimeout(() => {
        hung = true;
        child.kill('SIGKILL');
      }, SAFETY_KILL_MS);
      const check = () => {
        if (!stopping && spec.ready?.(stdout, stderr)) {
          stopping = true;
          child.kill('SIGTERM');
        }
      };
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        check();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        check();
      });
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(safety);
        resolve({ args: spec.args, code, stdout, stderr, hung });
      });
      child.stdin.end(spec.stdin ?? '');
    });
  } finally {
    release();
  }
}

/** A fresh git repository with one commit and `files`, as a user's project. */
export function workspace(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-matrix-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  writeFileSync(path.join(dir, 'README.md'), '# project\n');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init');
  return dir;
}

/** The command names of a `--help` text's "Commands:" section (`help` left out). */
export function commandsOf(help: string): string[] {
  const section = help.split(/^Commands:\s*$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1] ?? '').filter((name) => name !== 'help');
}
