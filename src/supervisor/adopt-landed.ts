import type { Dispatch, Task } from '../ledger/index.js';
import { HELPER_MODE } from '../precontext/index.js';
import type { ProviderChainOptions } from './provider-chain.js';
import type { TaskSites } from './task-site.js';

/**
 * A task a dead run left `running` whose result is already on the run's branch (the run died
 * after its push landed, before recording it): that attempt's dispatch and the task are completed
 * with it, and no agent runs again. Undefined when nothing of the cut-short attempts landed.
 */
export async function adoptLanded(
  task: Task,
  history: readonly Dispatch[],
  sites: TaskSites | undefined,
  chain: ProviderChainOptions,
): Promise<Task | undefined> {
  const cut = history.filter((d) => d.status === 'running' && d.mode !== HELPER_MODE);
  if (cut.length === 0 || !sites?.landed) return undefined;
  const landed = await sites.landed(task);
  const dispatch = landed && cut.find((d) => d.attempt === landed.attempt);
  if (!landed || !dispatch) return undefined;
  const summary = `Integrated into ${landed.into} (commit ${landed.commit.slice(0, 12)}) by attempt ${landed.attempt}, whose run stopped before recording it; adopted without running the agent again`;
  await chain.ledger.updateDispatch(dispatch.id, { status: 'completed', result: summary, finishedAt: chain.now() });
  // Whatever else that run left running (a helper's try) did not finish.
  await chain.ledger.markInterrupted({ taskId: task.id });
  const done = await chain.ledger.updateTask(task.id, { status: 'completed', resultSummary: summary });
  chain.logger.warn(
    { taskId: task.id, attempt: landed.attempt, commit: landed.commit },
    'adopted a result already integrated by a run that stopped',
  );
  chain.onEvent({ type: 'task-end', taskId: task.id, status: 'completed' });
  return done;
}
