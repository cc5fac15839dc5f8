/** packSections from code: a section or option of another shape is named, with the spelling expected. */
import { describe, expect, it } from 'vitest';
import { packSections } from '../../src/budget/index.js';

describe('packSections arguments', () => {
  it('names a misspelled section key and an unknown overflow strategy by index', () => {
    expect(() => packSections([{ id: 'a', text: 'x', priority: 1, max_tokens: 5 }] as never, { budget: 100 })).toThrow(
      'packSections: sections[0]: unknown key "max_tokens" (did you mean "maxTokens"?)',
    );
    expect(() => packSections([{ id: 'a', text: 'x', priority: 1, overflow: 'truncate' }] as never, { budget: 100 })).toThrow(
      /^packSections: sections\[0\]\.overflow: .*"trim-tail".*; got "truncate"$/,
    );
  });

  it('names an unknown option, and packs valid input', () => {
    expect(() => packSections([], { budgetTokens: 100 } as never)).toThrow(
      'packSections is invalid:\n  options.budget: Invalid input: expected number, received undefined\n  options: unknown key "budgetTokens" (did you mean "budget"?)',
    );
    expect(packSections([{ id: 'a', text: 'hello', priority: 1 }], { budget: 100 }).text).toBe('hello');
  });
});
