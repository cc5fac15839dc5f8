import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isBatonError } from '../../src/errors/index.js';
import { envOption, parseInput, suggestKey } from '../../src/util/index.js';
import { FAKE } from '../redact/fake-secrets.js';

const schema = z.strictObject({
  limitTokens: z.number().int().positive().optional(),
  preContext: z.strictObject({ maxLines: z.number().int().positive().optional(), types: z.array(z.string()).optional() }).optional(),
  tasks: z
    .array(
      z.strictObject({
        id: z.string(),
        acceptance_criteria: z
          .array(z.union([z.string(), z.strictObject({ description: z.string(), check: z.string().optional() })]))
          .default([]),
      }),
    )
    .optional(),
});

function failure(input: unknown, what = 'options') {
  try {
    parseInput(schema, input, { what });
  } catch (error) {
    if (isBatonError(error)) return error;
    throw error;
  }
  throw new Error('expected parseInput to throw');
}

describe('parseInput', () => {
  it('returns the parsed value when the input is valid', () => {
    expect(parseInput(schema, { limitTokens: 10 }, { what: 'options' })).toEqual({ limitTokens: 10 });
  });

  it('names an unknown camelCase key and the snake_case spelling expected there', () => {
    const error = failure({ tasks: [{ id: 'a', acceptanceCriteria: ['x'] }] }, 'Plan file plan.json');
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toBe('Plan file plan.json: tasks[0]: unknown key "acceptanceCriteria" (did you mean "acceptance_criteria"?)');
    expect(error.details).toMatchObject({ field: 'tasks[0].acceptanceCriteria', suggestion: 'acceptance_criteria' });
  });

  it('suggests the nearest key for a typo in a nested object', () => {
    const error = failure({ preContext: { maxLine: 3 } });
    expect(error.message).toBe('options: preContext: unknown key "maxLine" (did you mean "maxLines"?)');
  });

  it('lists the keys expected when nothing is close', () => {
    const error = failure({ zebra: 1 });
    expect(error.message).toBe('options: unknown key "zebra" (expected one of: limitTokens, preContext, tasks)');
  });

  it('reports the branch of a union the input was meant for, and the value found', () => {
    const error = failure({ tasks: [{ id: 'a', acceptance_criteria: [{ description: 'd', chekc: 'true' }] }] });
    expect(error.message).toContain('tasks[0].acceptance_criteria[0]: unknown key "chekc" (did you mean "check"?)');
    const bad = failure({ limitTokens: -5 });
    expect(bad.message).toMatch(/^options: limitTokens: Too small: .*; got -5$/);
    expect(bad.details).toMatchObject({ field: 'limitTokens', value: -5 });
  });

  it('lists every problem, one a line', () => {
    const error = failure({ limitTokens: 'many', preContext: { maxLines: 0 } });
    expect(error.message.split('\n')).toEqual([
      'options is invalid:',
      expect.stringMatching(/^ {2}limitTokens: .*expected number.*; got "many"$/),
      expect.stringMatching(/^ {2}preContext\.maxLines: .*; got 0$/),
    ]);
  });

  it('uses the code it is given', () => {
    expect(() => parseInput(schema, { x: 1 }, { what: 'request', code: 'INPUT_INVALID' })).toThrow(
      expect.objectContaining({ code: 'INPUT_INVALID' }),
    );
  });
});

describe('parseInput never echoes a secret', () => {
  const withSecrets = z.strictObject({
    env: envOption.optional(),
    headers: z.record(z.string(), z.string()).optional(),
    apiKey: z.number().optional(),
    model: z.number().optional(),
    limit: z.number().max(10).optional(),
    nested: z.strictObject({ id: z.number() }).optional(),
  });
  const everything = (error: { message: string; details: Record<string, unknown> }) => JSON.stringify([error.message, error.details]);
  const fail = (input: unknown) => {
    try {
      parseInput(withSecrets, input, { what: 'options' });
    } catch (error) {
      if (isBatonError(error)) return error;
    }
    throw new Error('expected parseInput to throw');
  };

  it('masks an env, headers, a value under a secret-like key, a string the redactor flags and a secret inside an object', () => {
    const env = { ...process.env, OPENAI_API_KEY: FAKE.openai, AWS_SECRET_ACCESS_KEY: FAKE.bearerToken, PATH: 1 };
    const error = fail({
      env,
      headers: { authorization: 7 },
      apiKey: `Bearer ${FAKE.bearerToken}`,
      model: FAKE.githubPat,
      nested: { id: { token: FAKE.password } },
    });
    const text = everything(error);
    for (const secret of [FAKE.openai, FAKE.bearerToken, FAKE.githubPat, FAKE.password]) expect(text).not.toContain(secret);
    const lines = error.message.split('\n');
    expect(lines).toContain('  env: expected an environment: an object of strings (process.env); got an object');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}apiKey: Invalid input: expected number, received string$/));
    expect(lines).toContain('  model: Invalid input: expected number, received string');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}nested\.id: .*expected number.*; got \{"token":"\[REDACTED:secret\]"\}$/));
    expect(error.details.field).toBe('env');
    expect(error.details.value).toBe('[REDACTED:env]');
  });

  it('keeps a harmless value that helps: a number out of range, a misspelled key', () => {
    const error = fail({ limit: 11, envv: {} });
    expect(error.message).toMatch(/limit: Too big: .*; got 11/);
    expect(error.message).toContain('unknown key "envv" (did you mean "env"?)');
  });
});

describe('suggestKey', () => {
  it('matches the other case style first, then near typos, else nothing', () => {
    expect(suggestKey('acceptanceCriteria', ['id', 'acceptance_criteria'])).toBe('acceptance_criteria');
    expect(suggestKey('max_lines', ['maxLines', 'maxFiles'])).toBe('maxLines');
    expect(suggestKey('timeoutMS', ['timeoutMs', 'signal'])).toBe('timeoutMs');
    expect(suggestKey('workspaceDirectory', ['workspaceDir', 'ledger'])).toBe('workspaceDir');
    expect(suggestKey('zebra', ['workspaceDir', 'ledger'])).toBeUndefined();
    expect(suggestKey('ledgr', ['ledger', 'providers'])).toBe('ledger');
  });
});
