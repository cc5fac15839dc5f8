import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FileFormatFor, SchemaFor, SnakeCase } from '../../src/util/index.js';

// Issue 35: a schema that mirrors an interface is tied to it at compile time. These lines are
// type-checked by `tsc` (the project's lint step): each @ts-expect-error fails the build if the
// guard stops catching that disagreement.

interface Options {
  name: string;
  limit?: number;
  tags?: readonly string[];
}

const matching = z.strictObject({ name: z.string().min(1), limit: z.number().int().optional(), tags: z.array(z.string()).optional() });
const forgotten = z.strictObject({ name: z.string(), limit: z.number().optional() });
const extra = z.strictObject({ name: z.string(), limit: z.number().optional(), tags: z.array(z.string()).optional(), colour: z.string() });
const narrower = z.strictObject({ name: z.string(), limit: z.string().optional(), tags: z.array(z.string()).optional() });

describe('SchemaFor', () => {
  it('accepts a schema with the same keys that takes every value of the interface', () => {
    const ok: SchemaFor<Options, typeof matching> = true;
    expect(ok).toBe(true);
    expect(matching.parse({ name: 'a', tags: ['x'] })).toEqual({ name: 'a', tags: ['x'] });
  });

  it('fails compilation for a key missing from the schema, a key the interface lacks, or a value the schema would refuse', () => {
    // @ts-expect-error: `tags` is an option the schema forgot (a strict schema would refuse it at run time).
    const missing: SchemaFor<Options, typeof forgotten> = true;
    // @ts-expect-error: `colour` is not an option.
    const unknown: SchemaFor<Options, typeof extra> = true;
    // @ts-expect-error: `limit` is a number in the interface and a string in the schema.
    const wrongType: SchemaFor<Options, typeof narrower> = true;
    expect([missing, unknown, wrongType]).toEqual([true, true, true]);
    // What each would do at run time to a valid Options (or refuse from one): the refusals the guard prevents.
    expect(forgotten.safeParse({ name: 'a', tags: [] }).success).toBe(false);
    expect(extra.safeParse({ name: 'a' }).success).toBe(false);
    expect(narrower.safeParse({ name: 'a', limit: 1 }).success).toBe(false);
  });
});

// A snake_case file format tied to the camelCase type it is read into (plan files, issue 35).
interface TaskSettings {
  dependsOn: string[];
  agentMode?: string;
  maxRetries?: number;
}

interface TaskFile {
  depends_on?: string[];
  agent_mode?: string;
  retry_policy?: { max_retries?: number };
}

interface ForgetfulTaskFile {
  depends_on?: string[];
  retry_policy?: { max_retries?: number };
}

describe('FileFormatFor', () => {
  it('spells camelCase keys in snake_case', () => {
    const snake: SnakeCase<'dependsOn' | 'agentMode' | 'id'> = 'agent_mode';
    expect(snake).toBe('agent_mode');
  });

  it('accepts a file format that spells every field (a moved one left to the caller) and fails compilation for one it forgot', () => {
    const covers: FileFormatFor<TaskSettings, TaskFile, 'maxRetries'> = true;
    // @ts-expect-error: `agentMode` has no `agent_mode` in the file format, so a file could not set it.
    const forgot: FileFormatFor<TaskSettings, ForgetfulTaskFile, 'maxRetries'> = true;
    // @ts-expect-error: `maxRetries` is not spelled `max_retries` at the top of the file, and it is not named as moved.
    const unmoved: FileFormatFor<TaskSettings, TaskFile> = true;
    expect([covers, forgot, unmoved]).toEqual([true, true, true]);
  });
});
