import { writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createWorktreeSites } from '../../../isolation/index.js';
import type { Ledger } from '../../../ledger/index.js';
import { silentLogger } from '../../../observability/index.js';
import type { Provider } from '../../../providers/index.js';
import { loadPlan, type RunReport, runPlan, type SupervisorEvent, workspaceOps } from '../../../supervisor/index.js';
import { gitOk } from '../../../workspace/index.js';

export interface ParallelPartInput {
  /** The demo's temporary folder: the part's repository is made in it. */
  root: string;
  examples: string;
  ledger: Ledger;
  builder: Provider;
  onEvent: (event: SupervisorEvent) => void;
}

/**
 * The demo's second part, `baton run --concurrency 2` in small: examples/demo-parallel-plan.yaml
 * in a new git repository, each task in its own worktree. Both tasks add a line to the same new
 * file, so the second to be integrated conflicts and is re-run with the MERGE CONFLICT CONTEXT.
 * Returns undefined without git (worktrees need it).
 */
export async function runParallelPart(input: ParallelPartInput): Promise<{ dir: string; report: RunReport } | undefined> {
  const dir = path.join(input.root, 'parallel');
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
  const plan = await loadPlan(path.join(input.examples, 'demo-parallel-plan.yaml'));
  const sites = await createWorktreeSites({ repoDir: dir, logger: silentLogger, onEvent: input.onEvent });
  const report = await runPlan(plan, {
    ledger: input.ledger,
    providers: [input.builder],
    workspace: workspaceOps(dir),
    workspaceDir: dir,
    agentTimeoutMs: 60_000,
    checkTimeoutMs: 30_000,
    logger: silentLogger,
    concurrency: 2,
    sites,
    onEvent: input.onEvent,
  });
  return { dir, report };
}
