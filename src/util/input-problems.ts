import type * as z from 'zod';
import { receivedType, safeValue } from './safe-value.js';
import { suggestKey } from './suggest-key.js';

/** One thing wrong with an input, as a person fixing it needs it. */
export interface InputProblem {
  /** Where: `preContext.maxLines`, `tasks[0].acceptance_criteria[1]`; `(root)` for the input itself. */
  field: string;
  /** What is wrong, with the expected spelling for an unknown key. */
  message: string;
  /** The line a message shows: the place, then what is wrong there. */
  text: string;
  /** The unknown key, when that is the problem. */
  key?: string;
  /** The spelling Baton expects instead of `key`. */
  suggestion?: string;
  /** The value found there, when it helps (never for an unknown key's whole object). */
  value?: unknown;
}

/** Turns a path into the text a problem names; plans add the task's id. */
export type DescribePath = (path: readonly PropertyKey[]) => string;

type Issue = z.core.$ZodIssue;
type AnySchema = z.core.$ZodType;

/**
 * The problems of a failed zod parse, one per unknown key or bad value: unknown keys name the
 * spelling expected at that place (from the schema's own keys), a union that failed reports the
 * branch the input was meant for, and a bad value says what was found.
 */
export function inputProblems(schema: AnySchema, input: unknown, error: z.ZodError, describe: DescribePath = formatPath): InputProblem[] {
  return flatten(error.issues, [], input).flatMap((issue) => toProblems(schema, input, issue, describe));
}

/** `a.b[0].c`, or `(root)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  return out || '(root)';
}

/** Union failures replaced by the issues of the branch the input was meant for. */
function flatten(issues: readonly Issue[], prefix: readonly PropertyKey[], input: unknown): Issue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ ...issue, path }];
    const meant = issue.errors.find((branch) => !branch.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0));
    return meant ? flatten(meant, path, input) : [{ ...issue, path }];
  });
}

function toProblems(schema: AnySchema, input: unknown, issue: Issue, describe: DescribePath): InputProblem[] {
  const field = describe(issue.path);
  const at = issue.path.length === 0 ? '' : `${field}: `;
  if (issue.code === 'unrecognized_keys') {
    const here = valueAt(input, issue.path);
    const present = new Set(here !== null && typeof here === 'object' ? Object.keys(here) : []);
    const known = keysAt(schema, issue.path).filter((k) => !present.has(k));
    return issue.keys.map((key) => {
      const suggestion = suggestKey(key, known);
      const hint =
        suggestion !== undefined ? `did you mean "${suggestion}"?` : known.length > 0 ? `expected one of: ${known.join(', ')}` : '';
      const message = `unknown key "${key}"${hint ? ` (${hint})` : ''}`;
      const problem: InputProblem = { field: describe([...issue.path, key]), key, message, text: `${at}${message}` };
      if (suggestion !== undefined) problem.suggestion = suggestion;
      return problem;
    });
  }
  const found = valueAt(input, issue.path);
  if (found === undefined) return [{ field, message: issue.message, text: `${field}: ${issue.message}` }];
  // What may be shown: a value that can hold a secret becomes a marker, and the message its type.
  const value = safeValue(found, issue.path);
  const masked = typeof value === 'string' && value !== found && WHOLE_MARKER.test(value);
  const got = masked ? (/\breceived\b/.test(issue.message) ? '' : `; got ${receivedType(found)}`) : `; got ${preview(value)}`;
  const message = `${issue.message}${got}`;
  return [{ field, message, text: `${field}: ${message}`, value }];
}

const WHOLE_MARKER = /^\[REDACTED:[a-z0-9-]+\]$/;

/** A short JSON rendering of a bad value for a message. */
function preview(value: unknown): string {
  let text: string;
  try {
    // A number as written: JSON would show NaN and Infinity as null.
    if (typeof value === 'number') return String(value);
    text = typeof value === 'function' ? 'a function' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The keys the schema accepts for the object at `path` (every union branch's). */
function keysAt(schema: AnySchema, path: readonly PropertyKey[]): string[] {
  let current: AnySchema[] = [schema];
  for (const key of path) current = current.flatMap(objects).flatMap((s) => childAt(s, key));
  return [...new Set(current.flatMap(objects).flatMap((s) => Object.keys(shapeOf(s))))];
}

/** The object schemas behind wrappers (optional, default, pipe, lazy) and union branches. */
function objects(schema: AnySchema): AnySchema[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return objects(def.innerType as AnySchema);
    case 'pipe':
      return objects(def.in as AnySchema);
    case 'lazy':
      return objects((def.getter as () => AnySchema)());
    case 'union':
      return (def.options as AnySchema[]).flatMap(objects);
    default:
      return [schema];
  }
}

function childAt(schema: AnySchema, key: PropertyKey): AnySchema[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  if (def.type === 'object') {
    const child = shapeOf(schema)[String(key)];
    return child ? [child] : [];
  }
  if (def.type === 'array') return [def.element as AnySchema];
  if (def.type === 'record') return [def.valueType as AnySchema];
  if (def.type === 'tuple' && typeof key === 'number') {
    const item = (def.items as AnySchema[])[key] ?? (def.rest as AnySchema | null);
    return item ? [item] : [];
  }
  return [];
}

function shapeOf(schema: AnySchema): Record<string, AnySchema> {
  const def = schema._zod.def as unknown as { type: string; shape?: Record<string, AnySchema> };
  return def.type === 'object' && def.shape ? def.shape : {};
}
