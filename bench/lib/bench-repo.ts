/**
 * The repository the cold-start and load benchmarks run on, as issues 16 and 17 describe it: the
 * 50,000-file repository of `npm run bench -- refresh` (same generator, same cache folder), copied
 * once so its working tree can carry 200 modified and 50 untracked files without disturbing the
 * refresh bench, and a SQLite ledger of 12 tasks with a few dispatches at `.baton/agent.db`.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openLedger } from '../../src/ledger/index.js';

const ROOT = '/tmp/baton-bench-refresh';
export const MODIFIED = 200;
export const UNTRACKED = 50;
export const TASKS = 12;

/** The committed repository of the refresh bench (built once, ~1 min for 50,000 files). */
export function ensureBaseRepo(files: number): string {
  const repo = path.join(ROOT, `repo-${files}`);
  const ready = path.join(repo, '.git', 'bench-ready');
  if (existsSync(ready)) return repo;
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(repo, { recursive: true });
  for (let i = 0; i < files; i += 1) {
    const dir = path.join(repo, 'src', `pkg${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `file${i}.ts`), `export const value${i} = ${i};\n`);
  }
  const git = (...a: string[]) => execFileSync('git', a, { cwd: repo, stdio: 'ignore', maxBuffer: 1 << 26 });
  git('init', '-q', '-b', 'main');
  // The commit leaves 50,000 loose objects, past git's auto-gc threshold: a detached `git gc`
  // would then pack them while the load repository is copied from this one (cpSync fails on a
  // vanished objects folder).
  git('config', 'gc.auto', '0');
  git('-c', 'user.email=bench@example.com', '-c', 'user.name=bench', 'add', '-A');
  git('-c', 'user.email=bench@example.com', '-c', 'user.name=bench', 'commit', '-qm', 'bench: 50k files');
  writeFileSync(ready, new Date().toISOString());
  return repo;
}

/**
 * A copy of the base repository with MODIFIED edited and UNTRACKED new files and a ledger of
 * TASKS tasks; built once under `name`, its working tree reset to that state on every call.
 */
export async function ensureLoadRepo(files: number, name: string): Promise<string> {
  const base = ensureBaseRepo(files);
  const repo = path.join(ROOT, `${name}-${files}`);
  const ready = path.join(repo, '.git', 'bench-copy-ready');
  if (!existsSync(ready)) {
    rmSync(repo, { recursive: true, force: true });
    cpSync(base, repo, { recursive: true });
    // Baton's own folder is not work in progress.
    appendFileSync(path.join(repo, '.git', 'info', 'exclude'), '\n.baton/\n');
    writeFileSync(ready, new Date().toISOString());
  }
  execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: repo, stdio: 'ignore' });
  for (let i = 0; i < MODIFIED; i += 1) {
    const k = i * 97;
    writeFileSync(
      path.join(repo, 'src', `pkg${Math.floor(k / 100)}`, `file${k}.ts`),
      `export const value${k} = ${k} + 1;\n// edited by the bench\n`,
    );
  }
  mkdirSync(path.join(repo, 'notes'), { recursive: true });
  for (let i = 0; i < UNTRACKED; i += 1) writeFileSync(path.join(repo, 'notes', `note${i}.md`), `note ${i}\n`);
  await ensureLedger(repo);
  return repo;
}

async function ensureLedger(repo: string): Promise<void> {
  const file = path.join(repo, '.baton', 'agent.db');
  if (existsSync(file)) return;
  const ledger = await openLedger({ spec: `sqlite:${file}` });
  try {
    const statuses = ['completed', 'completed', 'completed', 'in_progress', 'pending', 'blocked'] as const;
    for (let i = 0; i < TASKS; i += 1) {
      await ledger.createTask({
        id: `t${i + 1}`,
        title: `Task ${i + 1}: part ${i + 1} of the CSV export`,
        instructions: `Implement part ${i + 1}; keep the public API stable.`,
        status: statuses[i % statuses.length],
        dependsOn: i > 0 ? [`t${i}`] : [],
        acceptanceCriteria: [{ description: `part ${i + 1} tests pass`, check: `npm test -- part${i + 1}` }],
      });
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        await ledger.appendDispatch({
          taskId: `t${i + 1}`,
          attempt,
          provider: attempt === 1 ? 'gemini' : 'claude',
          status: attempt === 1 ? 'failed' : 'completed',
          outcome: attempt === 1 ? 'validation_failed' : 'ok',
          result: `attempt ${attempt} of task ${i + 1}: ${attempt === 1 ? 'tests failed in src/pkg1/file100.ts' : 'done'}`,
        });
      }
    }
  } finally {
    await ledger.close();
  }
}
