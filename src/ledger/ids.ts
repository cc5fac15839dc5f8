import { randomBytes } from 'node:crypto';

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
