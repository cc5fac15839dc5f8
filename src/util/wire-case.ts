/**
 * Machine-readable output is snake_case (the seeds' wire format: `next_cursor`, `open_breakers`,
 * `continuation_prompt`), while the library's values are camelCase TypeScript objects. Every
 * `--json` output (src/cli) and every MCP tool result (src/mcp/tool-result.ts) goes through this one
 * conversion at the edge, so no command or tool spells a key twice.
 */

/** Keys whose values are the user's own maps (a plan's per-task options), passed through as written. */
const OPAQUE_KEYS: ReadonlySet<string> = new Set(['options']);

/** `nextCursor` → `next_cursor`; keys already snake_case, numeric or capitalised stay as they are. */
export function toSnakeCase(key: string): string {
  if (!/^[a-z][A-Za-z0-9]*$/.test(key)) return key;
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** A deep copy of `value` with every object key in snake_case. Does not mutate `value`. */
export function toWireCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toWireCase);
  if (value === null || typeof value !== 'object' || !isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[toSnakeCase(key)] = OPAQUE_KEYS.has(key) ? inner : toWireCase(inner);
  }
  return out;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
