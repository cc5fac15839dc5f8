import { z } from 'zod';

/** Page size for list actions. @default 50 */
export const DEFAULT_PAGE_SIZE = 50;

export const pageShape = {
  limit: z.number().int().min(1).max(200).optional().describe('Items per page (1-200, default 50).'),
  cursor: z.string().optional().describe("Opaque cursor from the previous page's next_cursor."),
};

/**
 * A ledger record passed through as a JSON object. Advertised as `additionalProperties: true`
 * (zod's own `{}` reads as "a schema with no keyword" to portability checkers such as the MCP
 * Inspector's).
 */
export const recordSchema = z.record(z.string(), z.unknown()).meta({ additionalProperties: true });

export const pageOutputShape = {
  next_cursor: z.string().optional().describe('Pass as cursor to get the next page; absent on the last page.'),
};
