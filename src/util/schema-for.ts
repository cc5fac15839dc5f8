import type { z } from 'zod';

/** `T` without `readonly` (zod's arrays take mutable ones; a readonly list is the same data). */
type Mutable<T> = T extends readonly (infer E)[]
  ? Array<Mutable<E>>
  : T extends (...args: never[]) => unknown
    ? T
    : T extends object
      ? { -readonly [K in keyof T]: Mutable<T[K]> }
      : T;

/** The keys of both whose value in `T` is not within what the schema's input takes. */
type Mismatched<T, I> = { [K in keyof T & keyof I]-?: [Mutable<T[K]>] extends [I[K]] ? never : K }[keyof T & keyof I];

/** What `T` and the schema's input `I` disagree on: keys one lacks, values the schema would refuse. */
type Disagreement<T, I> = Exclude<keyof T, keyof I> | Exclude<keyof I, keyof T> | Mismatched<T, I>;

/**
 * Ties a schema to the interface it mirrors at compile time: `true` when schema `S` names exactly
 * the keys of `T` and takes every value `T` allows, otherwise `{ disagree: keys }`, so
 * `export const OPTIONS_MATCH: SchemaFor<Options, typeof schema> = true` stops the build when an
 * option is added to the interface (or its type widened) and not to the schema: a forgotten schema
 * cannot refuse a valid option at run time. Run-time refinements (min, int) are the schema's own.
 */
export type SchemaFor<T, S extends z.ZodType> = [Disagreement<T, z.input<S>>] extends [never]
  ? true
  : { disagree: Disagreement<T, z.input<S>> };

/** A camelCase key as a snake_case file format spells it (`dependsOn` → `depends_on`). */
export type SnakeCase<S extends string> = S extends `${infer H}${infer R}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<R>}`
  : S;

/**
 * Ties a snake_case file format `F` to the type `T` it is read into: `true` when `F` spells every key
 * of `T` in snake_case (keys in `Moved` are spelled otherwise in the file and left to the caller),
 * otherwise `{ missing: keys }`. With `SchemaFor<F, typeof schema>`, a field added to `T` fails the
 * build until the file format, and so the file's schema, takes it.
 */
export type FileFormatFor<T, F, Moved extends keyof T = never> = [Exclude<SnakeCase<Exclude<keyof T, Moved> & string>, keyof F>] extends [
  never,
]
  ? true
  : { missing: Exclude<SnakeCase<Exclude<keyof T, Moved> & string>, keyof F> };
