// The light face of prompt/: what `baton sessions` reads to mark `baton run`'s supervised tries,
// without the prompt builders. index.ts re-exports it all; refresh/light.ts says why a module has a
// second face.
import type { AgentSessionRecord } from '../ledger/light.js';

// A Baton task prompt (seed 000) or a seam block leads the first request of a try `baton run` started.
const TASK_PROMPT = /(^|\n)## Task ID\n|^--- (RETRY|PROVIDER SWITCH|HELPER AGENT|MERGE CONFLICT) CONTEXT ---/;
const TASK_ID_LINE = /(?:^|\n)## Task ID\n([^\n]+)/;

/** The task and try a supervised session ran, as far as its record tells (either may be unknown). */
export interface SupervisedLink {
  taskId?: string;
  attempt?: number;
}

/**
 * The task and try of one of `baton run`'s own supervised tries, or undefined for any other
 * session: linked by its hooks (BATON_SUPERVISED, `data.supervised`: task and try), or imported
 * from the client's store with a Baton task prompt as its first request (a try whose CLI has no
 * Baton hooks: the task id when the prompt's `## Task ID` survived the cut, no try number).
 */
export function supervisedLink(record: AgentSessionRecord): SupervisedLink | undefined {
  if (record.data.supervised !== undefined) return record.data.supervised;
  const first = record.data.transcript?.task;
  if (first === undefined || !TASK_PROMPT.test(first)) return undefined;
  const taskId = TASK_ID_LINE.exec(first)?.[1]?.trim();
  return taskId ? { taskId } : {};
}
