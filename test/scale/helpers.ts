/**
 * Shared plumbing of the scale tests: a project folder with a plan of stand-in tasks (the
 * issue's reproduction: an agent that sleeps, writes out/<task>.txt and logs each start), and
 * `baton` as a real child process: the built bin when the build is newer than every source file
 * (as `npm test` leaves it), else from source through tsx.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
export const OUT_WRITER = path.join(ROOT, 'test/supervisor/agents/out-writer.mjs');
const ENTRY = `import { main } from ${JSON.stringify(path.join(ROOT, 'src/cli/index.ts'))};
process.exitCode = await main(['node', 'baton', ...process.argv.slice(1)]);`;

export interface StartEntry {
  task: string;
  attempt: number;
  pid: number;
  cwd: string;
  head: string;
  at: number;
}

export interface PlanSpec {
  id: string;
  dependsOn?: string[];
  maxRetries?: number;
  /** Check command; default `test -f out/<id>.txt`. */
  check?: string;
}

export interface Project {
  dir: string;
  startLog: string;
  git: (...args: string[]) => string;
  starts(): StartEntry[];
}

/** A git repository with plan.json, baton.config.json (the out-writer agent) and a start log. */
export function makeProject(
  tasks: readonly PlanSpec[],
  agentEnv: Record<string, string> = {},
  files: Record<string, string> = {},
): Project {
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-scale-'));
  const startLog = path.join(dir, '..', `${path.basename(dir)}-starts.jsonl`);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'Test');
  git('config', 'commit.gpgsign', 'false');
  writeFileSync(path.join(dir, '.gitignore'), '.baton/\n*.db\n*.db-*\nplan.json\nbaton.config.json\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  git('add', '-A');
  git('commit', '-qm', 'initial commit');
  const plan = {
    tasks: tasks.map((t) => ({
      id: t.id,
      instructions: `Write out/${t.id}.txt.`,
      acceptance_criteria: [{ description: 'output exists', check: t.check ?? `test -f out/${t.id}.txt` }],
      ...(t.dependsOn ? { depends_on: t.dependsOn } : {}),
      ...(t.maxRetries ? { retry_policy: { max_retries: t.maxRetries } } : {}),
    })),
  };
  writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(plan, null, 2));
  writeFileSync(
    path.join(dir, 'baton.config.json'),
    JSON.stringify({
      providers: { stand_in: { type: 'command', command: [process.execPath, OUT_WRITER], env: { START_LOG: startLog, ...agentEnv } } },
      priority: ['stand_in'],
    }),
  );
  return {
    dir,
    startLog,
    git,
    starts: () =>
      existsSync(startLog)
        ? readFileSync(startLog, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as StartEntry)
        : [],
  };
}

export interface BatonRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** The newest modification time of a file under `dir` (0 when there is none). */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  return newest;
}

/**
 * How `baton` starts: `bin/baton.js` when its bundle was built after the last change to src/ (a
 * fifth of the CPU of loading ~450 source files through tsx, which every worker, producer and
 * status call here paid), else the sources themselves, so a test never runs a stale build.
 */
function batonCommand(): readonly string[] {
  const bundle = path.join(ROOT, 'dist/cli-bundle/index.js');
  const fresh = existsSync(bundle) && statSync(bundle).mtimeMs > newestUnder(path.join(ROOT, 'src'));
  return fresh ? [path.join(ROOT, 'bin/baton.js')] : ['--import', TSX_LOADER, '--input-type=module', '-e', ENTRY];
}
let command: readonly string[] | undefined;

/** `baton ARGS` in a real child process (see batonCommand). */
export function startBaton(args: readonly string[], options: { cwd: string; env?: Record<string, string> }): BatonRun {
  command ??= batonCommand();
  const child = spawn(process.execPath, [...command, ...args], {
    cwd: options.cwd,
    env: { ...process.env, BATON_LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/** Agent starts per task. */
export function startsPerTask(starts: readonly StartEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of starts) counts.set(s.task, (counts.get(s.task) ?? 0) + 1);
  return counts;
}
