/**
 * `npm run bench -- refresh [--files N] [--runs N]`: refresh_context latency on a 50,000-file git
 * repository and a SQLite ledger of 10,000 tasks and 100,000 dispatches (both cached under
 * /tmp/baton-bench-refresh between runs). Writes bench/results/refresh.json.
 * Targets (issue 6): standard cold <= 150 ms, warm <= 10 ms, detailed cold <= 400 ms.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LedgerLine, materializeDispatch, materializeTask, openLedger } from '../src/ledger/index.js';
import { GitCache, refreshContext } from '../src/refresh/index.js';
import { ensureBaseRepo } from './lib/bench-repo.js';

const ROOT = '/tmp/baton-bench-refresh';
const TASKS = 10_000;
const DISPATCHES = 100_000;

export default async function run(args: string[]): Promise<void> {
  const files = Number(flag(args, '--files') ?? 50_000);
  const runs = Number(flag(args, '--runs') ?? 20);
  const repo = ensureRepo(files);
  const ledgerFile = path.join(ROOT, `ledger-${TASKS}-${DISPATCHES}.db`);
  const fresh = !existsSync(ledgerFile);
  const ledger = await openLedger({ spec: `sqlite:${ledgerFile}` });
  if (fresh) await fillLedger(ledger);
  const common = { workspace: repo, ledger, taskId: `t${TASKS - 1}`, sessionId: 'bench', env: {} };

  // Load secretlint, the tokenizer and SQLite statements once: a server pays that at start-up.
  await refreshContext({ ...common, gitCache: new GitCache() });

  const gitStatus = timeMany(5, () => spawnSync('git', ['status', '--porcelain=v2'], { cwd: repo, stdio: 'ignore' }));
  const standardCold = await timeManyAsync(runs, () => refreshContext({ ...common, gitCache: new GitCache() }));
  const warmCache = new GitCache();
  await refreshContext({ ...common, gitCache: warmCache });
  const standardWarm = await timeManyAsync(runs, () => refreshContext({ ...common, gitCache: warmCache }));
  const detailedCold = await timeManyAsync(Math.max(5, Math.floor(runs / 2)), () =>
    refreshContext({ ...common, format: 'detailed', gitCache: new GitCache() }),
  );
  const sample = await refreshContext({ ...common, gitCache: warmCache });
  await ledger.close();

  const result = {
    standard_cold_p50_ms: round(percentile(standardCold, 50)),
    standard_cold_p95_ms: round(percentile(standardCold, 95)),
    standard_warm_p50_ms: round(percentile(standardWarm, 50)),
    detailed_cold_p50_ms: round(percentile(detailedCold, 50)),
    git_status_ms: round(percentile(gitStatus, 50)),
    files,
    tasks: TASKS,
    dispatches: DISPATCHES,
    runs,
    standard_tokens: sample.metadata.token_estimate,
    node: process.version,
  };
  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'refresh.json');
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

/** A repository of `files` committed files (bench-repo.ts builds it) plus a few uncommitted edits. */
function ensureRepo(files: number): string {
  const repo = ensureBaseRepo(files);
  // A realistic working tree: some edits and new files, so the diff and stats have work to do.
  for (let i = 0; i < 12; i += 1)
    writeFileSync(path.join(repo, 'src', `pkg${i}`, `file${i * 100}.ts`), `export const value${i * 100} = ${i} + 1;\n// edited\n`);
  for (let i = 0; i < 5; i += 1) writeFileSync(path.join(repo, `notes${i}.md`), `note ${i}\n`);
  return repo;
}

async function fillLedger(ledger: Awaited<ReturnType<typeof openLedger>>): Promise<void> {
  const now = Date.now();
  const lines: LedgerLine[] = [];
  for (let i = 0; i < TASKS; i += 1) {
    lines.push({
      kind: 'task',
      record: materializeTask(
        {
          id: `t${i}`,
          title: `Task ${i}: part ${i} of the pipeline`,
          instructions: `Implement step ${i}. `.repeat(20),
          status: (['pending', 'in_progress', 'completed', 'blocked'] as const)[i % 4],
          priority: i % 5,
          dependsOn: i > 0 ? [`t${i - 1}`] : [],
          acceptanceCriteria: [{ description: `part ${i} passes`, check: `npm test -- ${i}` }],
        },
        now - (TASKS - i) * 1000,
      ),
    });
  }
  for (let j = 0; j < DISPATCHES; j += 1) {
    lines.push({
      kind: 'dispatch',
      record: materializeDispatch(
        {
          id: `d${j}`,
          taskId: `t${j % TASKS}`,
          attempt: Math.floor(j / TASKS) + 1,
          provider: j % 2 ? 'claude' : 'gemini',
          status: j % 3 === 0 ? 'failed' : 'completed',
          outcome: j % 3 === 0 ? 'validation_failed' : 'ok',
          result: `Result ${j}: `.padEnd(300, '.'),
          startedAt: now - (DISPATCHES - j) * 10,
        },
        j + 1,
        now - (DISPATCHES - j) * 10,
      ),
    });
  }
  for (let start = 0; start < lines.length; start += 20_000) await ledger.importLines(lines.slice(start, start + 20_000));
}

function timeMany(n: number, fn: () => unknown): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out;
}

async function timeManyAsync(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
