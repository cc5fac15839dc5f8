import type * as z from 'zod';
import { BatonError, type BatonErrorCode } from '../errors/index.js';
import { type DescribePath, formatPath, type InputProblem, inputProblems } from './input-problems.js';
import { safeValue } from './safe-value.js';

export interface ParseInputOptions {
  /** What the input is, for the message: `createContextManager options`, `Config file /x/baton.config.json`. */
  what: string;
  /** The error's code: a config file or an options object is CONFIG_INVALID; a plan or request INPUT_INVALID. @default 'CONFIG_INVALID' */
  code?: Extract<BatonErrorCode, 'CONFIG_INVALID' | 'INPUT_INVALID'>;
  /** Added to the error's details (`file`, `taskId`). */
  details?: Record<string, unknown>;
  /** How a field path reads in the message. @default `a.b[0].c` */
  describePath?: DescribePath;
}

/**
 * Parses outside input (an options object, a config file, a plan) with a zod schema, strict
 * objects included, and returns the parsed value. A failure throws one BatonError that lists every
 * problem: each unknown key with the spelling Baton expects (`unknown key "acceptanceCriteria"
 * (did you mean "acceptance_criteria"?)`), each bad value with the value found. The error's
 * `details` carry `problems` (field, message, key, suggestion, value) and the first one's
 * `field` and `value`.
 *
 * @throws BatonError with `options.code` (default CONFIG_INVALID).
 * @example
 * const options = parseInput(optionsSchema, raw, { what: 'createContextManager options' });
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, options: ParseInputOptions): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw inputError(inputProblems(schema, input, result.error, options.describePath ?? formatPath), options);
}

/**
 * The error parseInput throws, for problems found another way (options that conflict). A problem
 * without `text` reads `field: message`.
 */
export function inputError(
  problems: ReadonlyArray<Omit<InputProblem, 'text'> & { text?: string }>,
  options: ParseInputOptions,
): BatonError {
  problems = problems.map(safeProblem);
  const lines = problems.map((p) => p.text ?? `${p.field}: ${p.message}`);
  const message = lines.length === 1 ? `${options.what}: ${lines[0]}` : `${options.what} is invalid:\n  ${lines.join('\n  ')}`;
  const first = problems[0];
  return new BatonError(options.code ?? 'CONFIG_INVALID', message, {
    details: {
      ...options.details,
      problems,
      ...(first ? { field: first.field } : {}),
      ...(first && 'value' in first ? { value: first.value } : {}),
      ...(first?.suggestion !== undefined ? { suggestion: first.suggestion } : {}),
    },
  });
}

/**
 * A problem as an error may print it: a value that can hold a secret (under `env`, `headers`, a
 * secret-like key, or flagged by the redactor) is masked. Messages are Baton's own words.
 */
function safeProblem<P extends Omit<InputProblem, 'text'> & { text?: string }>(problem: P): P {
  return 'value' in problem ? { ...problem, value: safeValue(problem.value, problem.field.split(/[.[\]]+/)) } : problem;
}
