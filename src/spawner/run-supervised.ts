import { helper } from './process-helper.js';
import { type SupervisedResult, type SuperviseHooks, type SuperviseRequest, superviseProcess } from './supervise-process.js';

/**
 * Runs an agent or a check under supervision (superviseProcess), through the process's spawn
 * helper once it has one: forking the ~150 MB worker for each cost its event loop ~4 ms a time.
 */
export function runSupervised(request: SuperviseRequest, hooks: SuperviseHooks = {}): Promise<SupervisedResult> {
  return new Promise((resolve) => {
    if (!helper.supervise(request, hooks, resolve)) resolve(superviseProcess(request, hooks));
  });
}
