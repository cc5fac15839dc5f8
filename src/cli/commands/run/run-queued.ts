import { BatonError } from '../../../errors/index.js';
import { type Ledger, newId } from '../../../ledger/index.js';
import { enqueuePlan, failedTaskJobs, queueConnection, queuePrefix, waitForTasks } from '../../../queue/index.js';
import { buildRunReport, type Plan, type RunReport } from '../../../supervisor/index.js';
import { git } from '../../../workspace/index.js';
import type { CliIO } from '../../context.js';

export interface QueuedRunOptions {
  ledger: Ledger;
  redisUrl: string;
  plan: Plan;
  repoDir: string;
  remote: string;
  maxRetries?: number;
  signal: AbortSignal;
  json: boolean;
}

/**
 * `baton run PLAN --queue`: puts the plan's tasks on the BullMQ queue of the ledger's Redis for
 * `baton worker` processes, waits until every task is completed, blocked or archived, then
 * fast-forwards the local branch to the remote's (where workers integrated the results).
 */
export async function runQueued(io: CliIO, options: QueuedRunOptions): Promise<RunReport> {
  const branch = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], options.repoDir);
  if (branch.code !== 0)
    throw new BatonError(
      'INPUT_INVALID',
      `--queue integrates into the checked-out branch, but ${options.repoDir} has none (detached HEAD or not a git repository)`,
      { details: { field: '--queue', value: options.repoDir } },
    );
  const runBranch = branch.stdout.trim();
  const url = await git(['remote', 'get-url', options.remote], options.repoDir);
  if (url.code !== 0)
    throw new BatonError(
      'INPUT_INVALID',
      `--queue: workers push results to the remote "${options.remote}", which ${options.repoDir} does not have`,
      { details: { field: '--remote', value: options.remote } },
    );
  // Workers build on the remote's branch: it must hold what this run starts from.
  const push = await git(['push', '--quiet', options.remote, `HEAD:refs/heads/${runBranch}`], options.repoDir);
  if (push.code !== 0)
    throw new BatonError(
      'INPUT_INVALID',
      `--queue: could not push ${runBranch} to ${options.remote} (pull first?): ${push.stderr.trim()}`,
      { details: { field: '--remote', value: options.remote } },
    );
  const startTip = (await git(['rev-parse', 'HEAD'], options.repoDir)).stdout.trim();
  const connection = queueConnection(options.redisUrl);
  const prefix = queuePrefix(process.env.BATON_NAMESPACE ?? 'default');
  const write = options.json ? io.stderr : io.stdout;
  const ids = options.plan.tasks.map((t) => t.id);
  const runId = newId('run').replace(/[^A-Za-z0-9_-]/g, '');
  const jobs = failedTaskJobs(connection, prefix, runId);
  let failed: Map<string, string>;
  try {
    const queued = await enqueuePlan({
      connection,
      prefix,
      ledger: options.ledger,
      plan: options.plan,
      runId,
      runBranch,
      remote: options.remote,
      startTip,
      ...(options.maxRetries ? { maxRetries: options.maxRetries } : {}),
    });
    write(
      `queued ${queued.length} of ${options.plan.tasks.length} tasks (run ${runId}) on ${options.remote}/${runBranch}; waiting for workers\n`,
    );
    failed = await waitForTasks(options.ledger, ids, {
      signal: options.signal,
      onProgress: (done) => write(`${done}/${ids.length} tasks finished\n`),
      onUnavailable: (message) => write(`ledger unavailable, still waiting: ${message}\n`),
      failedJobs: () => jobs.read(),
    });
  } finally {
    await jobs.close();
    connection.disconnect();
  }
  for (const [id, why] of failed) write(`${id}: its job failed on every delivery, no worker could run it: ${why}\n`);
  const pull = await git(['pull', '--quiet', '--ff-only', options.remote, runBranch], options.repoDir);
  if (pull.code !== 0)
    write(`results are on ${options.remote}/${runBranch}; could not fast-forward here: ${pull.stderr.trim().split('\n')[0]}\n`);
  const report = await buildRunReport(options.ledger, ids);
  for (const task of report.tasks) {
    const why = failed.get(task.id);
    if (why !== undefined) task.job_error = why;
  }
  return report;
}
