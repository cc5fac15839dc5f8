import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isBatonError } from '../../src/errors/index.js';
import { parseInput, suggestKey } from '../../src/util/index.js';

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
