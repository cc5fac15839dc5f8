import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createWorktreeSites } from '../../../isolation/index.js';
import { type Ledger, openLedger } from '../../../ledger/index.js';
import { silentLogger } from '../../../observability/index.js';
import { createCommandProvider, type Provider } from '../../../providers/index.js';
import { loadPlan, type RunReport, runPlan, type SupervisorEvent, workspaceOps } from '../../../supervisor/index.js';
import { PACKAGE_ROOT } from '../../../version/index.js';
import { gitOk } from '../../../workspace/index.js';
import { type CliIO, type CommonOptions, EXIT_FAILURE, EXIT_OK, printResult } from '../../context.js';
import { describeDemoEvent } from './describe-demo-event.js';

export interface DemoOptions extends CommonOptions {
  keep?: boolean;
}

/** One pre-context block the demo injected, for the printout and the JSON. */
export interface InjectedSeam {
  task: string;
  attempt: number;
  seam: 'circuit_breaker' | 'retry' | 'helper' | 'merge_conflict';
  context: string;
}

export interface DemoResult {
  /** Present when --keep kept it. */
  workspace?: string;
  /** The demo's SQLite ledger, present when --keep kept it. */
  ledger?: string;
  /** The repository of part 2 (parallel tasks in worktrees), present when --keep kept it. */
  parallel_workspace?: string;
  injected: InjectedSeam[];
  tasks: RunReport['tasks'];
}

/**
 * Runs examples/demo-plan.yaml with the example agents of examples/agents/ (plain node scripts:
 * no network, no credentials) in a temporary git workspace, on the embedded SQLite ledger. The
 * ledger file sits beside the workspace, not in it, so its own writes are never measured as the
 * agents' changes; with --keep both stay for `baton status --ledger sqlite:PATH`. Then part 2
 * (runParallelPart) shows the merge-conflict seam of `--concurrency`.
 */
export async function runDemo(io: CliIO, options: DemoOptions): Promise<number> {
  const examples = path.join(PACKAGE_ROOT, 'examples');
  const root = await mkdtemp(path.join(tmpdir(), 'baton-demo-'));
  const dir = path.join(root, 'workspace');
  const ledgerFile = path.join(root, '.baton', 'agent.db');
  const agent = (name: string, script: string): Provider =>
    createCommandProvider(name, { type: 'command', command: [process.execPath, path.join(examples, 'agents', script)] });
  const injected: InjectedSeam[] = [];
  const print = (text: string) => {
    if (!options.json) io.stdout(`${text}\n`);
  };
  try {
    await mkdir(dir, { recursive: true });
    await initGit(dir);
    print(`Baton demo: example plan in ${dir}${options.keep ? '' : ' (removed afterwards; --keep keeps it)'}`);
    print(`Ledger: sqlite:${ledgerFile}`);
    print('Providers in priority order: quota (always rate-limited), builder; helper agent: verifier\n');
    const narrate = (tagged: boolean) => (event: SupervisorEvent) => {
      if (event.type === 'context') injected.push({ task: event.taskId, attempt: event.attempt, seam: event.kind, context: event.text });
      const text = describeDemoEvent(event, tagged);
      if (text) print(text);
    };
    const onEvent = narrate(false);
    const plan = await loadPlan(path.join(examples, 'demo-plan.yaml'));
    const ledger = await openLedger({ spec: `sqlite:${ledgerFile}` });
    const report = await runPlan(plan, {
      ledger,
      providers: [agent('quota', 'rate-limited.mjs'), agent('builder', 'builder.mjs')],
      helperProviders: [agent('verifier', 'verifier.mjs')],
      workspace: workspaceOps(dir),
      workspaceDir: dir,
      agentTimeoutMs: 60_000,
      checkTimeoutMs: 30_000,
      logger: silentLogger,
      onEvent,
    });
    print('\nPart 2: two tasks at once (--concurrency 2), each in its own git worktree, both adding a line to MOTTO.md\n');
    const parallel = await runParallelPart(root, examples, ledger, agent('builder', 'builder.mjs'), narrate(true));
    if (!parallel) print('  skipped: git is not installed');
    await ledger.close();
    const tasks = [...report.tasks, ...(parallel?.report.tasks ?? [])];
    const result: DemoResult = {
      ...(options.keep ? { workspace: dir, ledger: `sqlite:${ledgerFile}` } : {}),
      ...(options.keep && parallel ? { parallel_workspace: parallel.dir } : {}),
      injected,
      tasks,
    };
    printResult(
      io,
      options,
      result,
      () =>
        summary(tasks, injected) +
        (options.keep ? `\nSee every try and injected context in a browser: baton ui --ledger sqlite:${ledgerFile}` : ''),
    );
    return tasks.every((t) => t.status === 'completed') ? EXIT_OK : EXIT_FAILURE;
  } finally {
    if (!options.keep) await rm(root, { recursive: true, force: true });
  }
}

async function initGit(dir: string): Promise<void> {
  try {
    await gitOk(['init', '-q'], dir);
  } catch {
    // Without git the workspace is measured by a plain folder walk; the demo still works.
  }
}

function summary(reported: RunReport['tasks'], injected: readonly InjectedSeam[]): string {
  const seams = new Set(injected.map((i) => i.seam));
  const tasks = reported.map((t) => `${t.id} ${t.status} after ${new Set(t.attempts.map((a) => a.attempt)).size} attempt(s)`);
  return `\nResult: ${tasks.join(', ')}.\nSeams with injected context: ${[...seams].join(', ') || 'none'}.`;
}

/**
 * The demo's second part, `baton run --concurrency 2` in small: examples/demo-parallel-plan.yaml
 * in a new git repository under `root`, each task in its own worktree. Both tasks add a line to
 * the same new file, so the second to be integrated conflicts and is re-run with the MERGE CONFLICT
 * CONTEXT. Returns undefined without git (worktrees need it).
 */
async function runParallelPart(
  root: string,
  examples: string,
  ledger: Ledger,
  builder: Provider,
  onEvent: (event: SupervisorEvent) => void,
): Promise<{ dir: string; report: RunReport } | undefined> {
  const dir = path.join(root, 'parallel');
  await mkdir(dir, { recursive: true });
  const git = (...args: string[]) => gitOk(['-c', 'user.email=demo@baton.invalid', '-c', 'user.name=Baton demo', ...args], dir);
  try {
    await git('init', '-q', '-b', 'main');
    writeFileSync(path.join(dir, 'README.md'), '# Motto\n');
    await git('add', '-A');
    await git('commit', '-qm', 'demo: initial commit');
  } catch {
    return undefined;
  }
  const plan = await loadPlan(path.join(examples, 'demo-parallel-plan.yaml'));
  const sites = await createWorktreeSites({ repoDir: dir, logger: silentLogger, onEvent });
  const report = await runPlan(plan, {
    ledger,
    providers: [builder],
    workspace: workspaceOps(dir),
    workspaceDir: dir,
    agentTimeoutMs: 60_000,
    checkTimeoutMs: 30_000,
    logger: silentLogger,
    concurrency: 2,
    sites,
    onEvent,
  });
  return { dir, report };
}
