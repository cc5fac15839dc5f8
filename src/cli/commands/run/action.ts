import path from 'node:path';
import { type BatonConfig, loadConfig } from '../../../config/index.js';
import { BatonError } from '../../../errors/index.js';
import { createWorktreeSites } from '../../../isolation/index.js';
import { openLedger } from '../../../ledger/index.js';
import { createProviders, type Provider } from '../../../providers/index.js';
import { loadPlan, type RunReport, runPlan, sessionRefresher, workspaceOps } from '../../../supervisor/index.js';
import { EXIT_FAILURE, EXIT_OK, parsePort, parsePositiveInt, printResult, type CliIO, type CommonOptions } from '../../context.js';
import { sessionWorkspace } from '../../../sessions/light.js';
import { startMetricsServer } from './metrics-server.js';
import { createProgress } from './progress.js';
import { runQueued } from './run-queued.js';
import { configRunOptions } from './config-run-options.js';

export interface RunOptions extends CommonOptions {
  providers?: string;
  maxRetries?: string;
  workspace?: string;
  metricsPort?: string;
  maxWait?: string;
  concurrency?: string;
  keepWorktrees?: boolean;
  queue?: boolean;
  remote?: string;
}

/** Runs a plan; exit 0 when every task completed, 1 when any did not, 2 on bad input. */
export async function runRun(io: CliIO, planFile: string, options: RunOptions): Promise<number> {
  const maxRetries = options.maxRetries === undefined ? undefined : parsePositiveInt(options.maxRetries, '--max-retries');
  const metricsPort = options.metricsPort === undefined ? undefined : parsePort(options.metricsPort, '--metrics-port');
  const maxWaitMs = options.maxWait === undefined ? 0 : parseNonNegative(options.maxWait, '--max-wait');
  const concurrency = options.concurrency === undefined ? 1 : parsePositiveInt(options.concurrency, '--concurrency');
  const config = await loadConfig({ cwd: io.cwd, ...(options.config ? { file: options.config } : {}), env: io.env });
  const plan = await loadPlan(planFile, { cwd: io.cwd });
  const { providers, helperProviders } = selectProviders(config, options.providers);
  const workspaceDir = path.resolve(io.cwd, options.workspace ?? '.');
  const progress = createProgress(io, { json: Boolean(options.json) });
  // Checked before the ledger opens: a repository that cannot take worktrees is bad input (exit 2).
  const sites =
    concurrency > 1
      ? await createWorktreeSites({
          repoDir: workspaceDir,
          keepWorktrees: Boolean(options.keepWorktrees),
          commitPolicy: config.commitPolicy,
          onEvent: progress.onEvent,
        })
      : undefined;
  const ledgerSpec = options.ledger ?? io.env.BATON_LEDGER ?? config.ledger;
  if (options.queue && !/^rediss?:\/\//.test(ledgerSpec ?? '')) {
    throw new BatonError(
      'INPUT_INVALID',
      `--queue needs a Redis ledger (--ledger redis://HOST:PORT/DB), got "${ledgerSpec ?? 'the default SQLite file'}"`,
      { details: { field: '--ledger', value: ledgerSpec } },
    );
  }
  const ledger = await openLedger({ spec: ledgerSpec, cwd: io.cwd });
  // Each try's prompt reads hook-recorded and imported sessions alike, imported just before it (bounded:
  // a slow store never holds the run), so a session another CLI ran between two tries is in the next one.
  const refreshSessions = sessionRefresher(ledger, { cwd: workspaceDir, workspace: await sessionWorkspace(workspaceDir), env: io.env });
  if (options.queue) await refreshSessions();
  const metrics = metricsPort === undefined ? undefined : await startMetricsServer(metricsPort);
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let report: RunReport;
  try {
    report = options.queue
      ? await runQueued(io, {
          ledger,
          redisUrl: ledgerSpec as string,
          plan,
          repoDir: workspaceDir,
          remote: options.remote ?? 'origin',
          signal: abort.signal,
          json: Boolean(options.json),
          ...(maxRetries === undefined ? {} : { maxRetries }),
        })
      : await runPlan(plan, {
          ledger,
          providers,
          helperProviders,
          workspace: workspaceOps(workspaceDir),
          workspaceDir,
          ...configRunOptions(config, io.env),
          maxWaitMs,
          concurrency,
          ...(sites ? { sites } : {}),
          onEvent: progress.onEvent,
          signal: abort.signal,
          refreshSessions,
          ...(maxRetries === undefined ? {} : { maxRetries }),
        });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    progress.finish();
    await metrics?.close();
    await ledger.close();
  }
  printResult(io, options, report, () => renderReport(report));
  return report.tasks.every((t) => t.status === 'completed') ? EXIT_OK : EXIT_FAILURE;
}

export function selectProviders(config: BatonConfig, list: string | undefined): { providers: Provider[]; helperProviders: Provider[] } {
  const priority =
    list === undefined
      ? config.priority
      : list
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  if (priority.length === 0) {
    throw new BatonError('INPUT_INVALID', '--providers names no provider', { details: { field: '--providers', value: list } });
  }
  const names = config.helper ? [...priority, config.helper] : priority;
  let created: Record<string, Provider>;
  try {
    created = createProviders({ providers: config.providers, priority: names });
  } catch (error) {
    const known = Object.keys(config.providers).join(', ');
    throw new BatonError(
      'INPUT_INVALID',
      `${(error as Error).message} (declared: ${known || 'none'}; built-in: gemini, copilot, cursor, codex, claude)`,
      {
        cause: error,
        details: { field: '--providers', value: list },
      },
    );
  }
  const providers = priority.map((name) => created[name] as Provider);
  return { providers, helperProviders: config.helper ? [created[config.helper] as Provider] : providers };
}

function parseNonNegative(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) {
    throw new BatonError('INPUT_INVALID', `${flag} must be a number of milliseconds >= 0, got "${value}"`, {
      details: { field: flag, value },
    });
  }
  return n;
}

function renderReport(report: RunReport): string {
  const lines = report.tasks.map((t) => {
    const attempts = new Set(t.attempts.map((a) => a.attempt)).size;
    const where = t.ran_here === false && t.attempts.length > 0 ? ', by another run' : '';
    const job = t.job_error ? `; its job failed: ${t.job_error}` : '';
    const flagged = t.attempts.flatMap((a) => a.flagged ?? []).map((line) => `\n  ⚑ flagged: ${line}`);
    return `${t.status === 'completed' ? '✓' : '✗'} ${t.id}: ${t.status} (${attempts} attempt${attempts === 1 ? '' : 's'}, ${t.attempts.length} provider tr${t.attempts.length === 1 ? 'y' : 'ies'}${where})${job}${flagged.join('')}`;
  });
  const done = report.tasks.filter((t) => t.status === 'completed').length;
  const shared =
    report.shared && report.shared.ran_by_others.length > 0
      ? [`ran here: ${list(report.shared.ran_here)}; ran by other runs: ${list(report.shared.ran_by_others)}`]
      : [];
  return [...lines, ...shared, `${done}/${report.tasks.length} tasks completed`].join('\n');
}

function list(ids: readonly string[]): string {
  if (ids.length === 0) return 'none';
  return `${ids.length} (${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''})`;
}
