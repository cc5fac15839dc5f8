import { encodeCursor } from '../defaults.js';
import type { Page } from '../types.js';

export { pageSize } from '../defaults.js';

/** Rows were fetched with limit + 1, so an extra row means another page exists. */
export function toPage<T>(items: T[], limit: number, key: (item: T) => (string | number)[]): Page<T> {
  if (items.length <= limit) return { items };
  const page = items.slice(0, limit);
  return { items: page, nextCursor: encodeCursor(key(page[page.length - 1] as T)) };
}
