import { loadConfig } from '../../../config/index.js';
import { BatonError } from '../../../errors/index.js';
import { openLedger } from '../../../ledger/index.js';
import {
  DEFAULT_QUEUE_LOCK_MS,
  DEFAULT_STALLED_INTERVAL_MS,
  queueConnection,
  queuePrefix,
  readQueueStatus,
  startQueueWorker,
} from '../../../queue/index.js';
import { startMetricsServer } from '../run/metrics-server.js';
import { sessionWorkspace } from '../../../sessions/light.js';
import { sessionRefresher } from '../../../supervisor/index.js';
import { type CliIO, type CommonOptions, EXIT_FAILURE, EXIT_OK, parsePort, parsePositiveInt, untilSignal } from '../../context.js';
import { selectProviders } from '../run/action.js';
import { createProgress } from '../run/progress.js';
import { configRunOptions } from '../run/config-run-options.js';

export interface WorkerOptions extends CommonOptions {
  concurrency?: string;
  providers?: string;
  keepWorktrees?: boolean;
  metricsPort?: string;
}

/** Runs until SIGTERM or SIGINT, then stops taking jobs and finishes the running ones (exit 0). */
export async function runWorker(io: CliIO, options: WorkerOptions): Promise<number> {
  const concurrency = options.concurrency === undefined ? 1 : parsePositiveInt(options.concurrency, '--concurrency');
  const metricsPort = options.metricsPort === undefined ? undefined : parsePort(options.metricsPort, '--metrics-port');
  const config = await loadConfig({ cwd: io.cwd, ...(options.config ? { file: options.config } : {}), env: io.env });
  const spec = options.ledger ?? io.env.BATON_LEDGER ?? config.ledger;
  if (!spec || !/^rediss?:\/\//.test(spec)) {
    throw new BatonError('INPUT_INVALID', `baton worker needs a Redis ledger (--ledger redis://HOST:PORT/DB), got "${spec ?? 'none'}"`, {
      details: { field: '--ledger', value: spec },
    });
  }
  const { providers, helperProviders } = selectProviders(config, options.providers);
  const ledger = await openLedger({ spec, cwd: io.cwd });
  const connection = queueConnection(spec);
  const progress = createProgress(io, { json: Boolean(options.json) });
  const lockMs = Number(io.env.BATON_QUEUE_LOCK_MS);
  const stalledMs = Number(io.env.BATON_QUEUE_STALLED_MS);
  const recheckMs = Number(io.env.BATON_QUEUE_BREAKER_RECHECK_MS);
  const namespace = io.env.BATON_NAMESPACE ?? process.env.BATON_NAMESPACE ?? 'default';
  const stopped = untilSignal();
  try {
    const worker = await startQueueWorker({
      connection,
      prefix: queuePrefix(namespace),
      ledger,
      repoDir: io.cwd,
      concurrency,
      lockMs: lockMs > 0 ? lockMs : DEFAULT_QUEUE_LOCK_MS,
      stalledIntervalMs: stalledMs > 0 ? stalledMs : DEFAULT_STALLED_INTERVAL_MS,
      ...(recheckMs > 0 ? { breakerRecheckMs: recheckMs } : {}),
      keepWorktrees: Boolean(options.keepWorktrees),
      commitPolicy: config.commitPolicy,
      run: {
        providers,
        helperProviders,
        ...configRunOptions(config, io.env),
        onEvent: progress.onEvent,
        // As `baton run`: each try's native agent CLI session (in a worktree of this clone) is
        // imported from the client's store before the next try's prompt and when the task ends.
        refreshSessions: sessionRefresher(ledger, { cwd: io.cwd, workspace: await sessionWorkspace(io.cwd), env: io.env }),
      },
    });
    const metrics =
      metricsPort === undefined
        ? undefined
        : await startMetricsServer(metricsPort, () => readQueueStatus(connection, queuePrefix(namespace)));
    io.stdout(`baton worker ${worker.owner} ready (concurrency ${concurrency}${metrics ? `, metrics on :${metrics.port}/metrics` : ''})\n`);
    const ended = await Promise.race([stopped, worker.outOfRotation.then((why) => ({ why }))]);
    await metrics?.close();
    if (typeof ended === 'object') {
      // The job went back to the queue; only the person who owns this clone can fix it.
      await worker.close();
      io.stderr(
        `baton worker ${worker.owner} left the rotation: its clone in ${io.cwd} failed a job (handed back to the queue): ${ended.why}\nFix the clone, then start the worker again.\n`,
      );
      return EXIT_FAILURE;
    }
    io.stdout(`${ended}: finishing the running tasks, taking no new ones\n`);
    await worker.close();
    io.stdout('baton worker stopped\n');
  } finally {
    progress.finish();
    connection.disconnect();
    await ledger.close();
  }
  return EXIT_OK;
}
