import type { NewTask } from '../ledger/index.js';
import type { PlanTask } from './plan-types.js';

/** The ledger record of a plan task, as `upsertTask` takes it (runPlan and the queue's producer alike). */
export function toNewTask(task: PlanTask): NewTask {
  return {
    id: task.id,
    title: task.title,
    instructions: task.instructions,
    intent: task.intent,
    acceptanceCriteria: task.acceptanceCriteria,
    dependsOn: task.dependsOn,
    options: task.options,
    priority: task.priority,
    ...(task.agentMode === undefined ? {} : { mode: task.agentMode }),
  };
}
