import { describe, expect, it } from 'vitest';
import { createContextManager } from '../../src/loop/index.js';
import { countTokens } from '../../src/tokens/index.js';

/** An AGENTS.md-style preamble: headings with long rule lists, a commented rules region, then the user's ask. */
function agentsTask(): string {
  const rules = (topic: string, n: number) =>
    Array.from({ length: n }, (_, i) => `- ${topic} rule ${i}: always follow the ${topic} convention number ${i} in every file`);
  return [
    'This is a web application written with a web framework.',
    '',
    '## Project guidelines',
    '',
    ...rules('project', 30),
    '',
    '<!-- usage-rules-start -->',
    '## Framework usage rules',
    '',
    ...rules('framework', 60),
    '<!-- usage-rules-end -->',
    '',
    '<environment_context>',
    '  <cwd>/home/user/app</cwd>',
    '</environment_context>',
    '',
    'Create a new schema in app/products called TLD with the name of the extension and its pricing.',
    '',
    '1. Add a "sku" field, a unique string.',
    '2. Also create a migration, use :text for string fields.',
  ].join('\n');
}

describe("the task's boilerplate shrinks before the user's request", () => {
  it('keeps the head and the request at the end of a long instructions preamble, within the goal cap', async () => {
    const manager = await createContextManager({ limitTokens: 200_000 });
    const task = agentsTask();
    manager.recordAll([
      { kind: 'system', text: 'You are a coding agent.' },
      { kind: 'user', text: task },
    ]);
    const budget = 2048;
    const ctx = manager.assemble({ budget });
    expect(countTokens(task)).toBeGreaterThan(budget / 2); // the goal's cap is a quarter of the budget
    expect(countTokens(ctx.text)).toBeLessThanOrEqual(budget);
    const goal = ctx.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(goal.startsWith('This is a web application written with a web framework.')).toBe(true);
    expect(goal).toContain('Create a new schema in app/products called TLD');
    expect(goal).toContain('1. Add a "sku" field, a unique string.');
    expect(goal).toContain('2. Also create a migration, use :text for string fields.');
    expect(goal).toMatch(/\[\.\.\. \d+ lines of instructions omitted \.\.\.\]/);
    // The rules are what went: most of the framework list is omitted.
    expect(goal).not.toContain('framework rule 59');
  });

  it('cuts a task without structure as before (head kept)', async () => {
    const manager = await createContextManager({ limitTokens: 200_000 });
    const task = `Fix the parser. ${'The parser drops keys after a comment line in the config. '.repeat(200)}`;
    manager.recordAll([{ kind: 'user', text: task }]);
    const ctx = manager.assemble({ budget: 2048 });
    const goal = ctx.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(goal.startsWith('Fix the parser.')).toBe(true);
    expect(countTokens(ctx.text)).toBeLessThanOrEqual(2048);
  });
});
