import { randomBytes } from 'node:crypto';
import { BatonError } from '../errors/index.js';

/**
 * @default 256: the longest task id, in characters. An id is in every prompt, context, branch name
 * and argument list an agent gets: a 100 KB id broke the context caps, a 20 MB one the agent's start.
 */
export const MAX_TASK_ID_LENGTH = 256;

/**
 * Checks a task id where it comes in (ledger create, import, plans, MCP): a non-empty string of at
 * most MAX_TASK_ID_LENGTH characters. The error names the field, the length and the limit, and
 * shows only the id's start.
 * @throws BatonError INPUT_INVALID
 */
export function checkTaskId(id: unknown, field = 'id'): void {
  if (typeof id === 'string' && id.length > 0 && id.length <= MAX_TASK_ID_LENGTH) return;
  const problem =
    typeof id !== 'string'
      ? `must be a string; got ${id === null ? 'null' : typeof id}`
      : id.length === 0
        ? 'must not be empty'
        : `is ${id.length} characters long, over the limit of ${MAX_TASK_ID_LENGTH}: ${JSON.stringify(id.slice(0, 40))}…`;
  throw new BatonError('INPUT_INVALID', `Task ${field} ${problem}`, {
    details: { field, limit: MAX_TASK_ID_LENGTH, ...(typeof id === 'string' ? { length: id.length } : {}) },
  });
}

let lastMs = 0;
let counter = 0;

/**
 * A sortable unique id: `<prefix>` + base36 time + counter + random. Ids created later in one
 * process sort after earlier ones, which keeps cursors and exports stable.
 */
export function newId(prefix: string): string {
  const now = Date.now();
  counter = now === lastMs ? counter + 1 : 0;
  lastMs = now;
  return `${prefix}${now.toString(36).padStart(9, '0')}${counter.toString(36).padStart(3, '0')}${randomBytes(4).toString('hex')}`;
}
