/**
 * The entries of `fields` whose value is not undefined, for spreading into an object whose
 * optional fields must be absent rather than present-and-undefined (JSON output, `in` checks,
 * snapshots, option objects that tell "not given" from `undefined`). Replaces the
 * `...(x === undefined ? {} : { x })` spread, one per field. Does not mutate `fields`.
 *
 * @example
 * runProcess(argv, { cwd, ...definedFields({ signal: options.signal, env: options.env }) });
 */
export function definedFields<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
