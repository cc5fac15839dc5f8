import { describe, expect, it } from 'vitest';
import { createContextManager, type LoopEvent, MIN_SHARED_TOKENS, waterLevel } from '../../src/loop/index.js';
import { countTokens } from '../../src/tokens/index.js';

const SYSTEM = 'You are a careful coding agent. Use the tools to read, edit and test code.';
const TASK = 'Fix the bug: parseConfig() drops the "timeout" key when the config file has comments.';

/** A long command output: a first line, many rows, an error in the middle, a last line. */
function output(tag: string, rows: number, middle?: string): string {
  const lines = [`${tag} first line`];
  for (let i = 0; i < rows; i += 1) lines.push(`${tag} row ${i}: ${'value '.repeat(6)}${i}`);
  if (middle) lines.splice(Math.floor(rows / 2), 0, middle);
  lines.push(`${tag} last line`);
  return lines.join('\n');
}

/** Three tool calls, each with a large output; the second hides an error in its middle. */
function threeLargeOutputs(): LoopEvent[] {
  const events: LoopEvent[] = [
    { kind: 'system', text: SYSTEM },
    { kind: 'user', text: TASK },
  ];
  const outputs = [output('alpha', 120), output('beta', 90, 'ValueError: timeout must be an int'), output('gamma', 150)];
  outputs.forEach((text, i) => {
    const id = `c${i}`;
    events.push(
      {
        kind: 'assistant',
        text: `Step ${i}: run the ${['lister', 'parser', 'tests'][i]}.`,
        toolCalls: [{ id, name: 'bash', args: { command: `./step${i}.sh` } }],
      },
      { kind: 'tool', callId: id, name: 'bash', text },
    );
  });
  return events;
}

describe('the recent window shares one head+tail allowance at a small budget', () => {
  it('water-fills: small outputs whole, the large ones cut to the same share', () => {
    expect(waterLevel([10, 50, 500], 200)).toBe(140);
    expect(waterLevel([10, 50, 60], 200)).toBe(60);
    expect(waterLevel([300, 400, 500], 3 * MIN_SHARED_TOKENS - 1)).toBeUndefined();
  });

  it('keeps every one of the last three calls with the first and last line of its output, within the budget', async () => {
    const manager = await createContextManager({ limitTokens: 200_000 });
    manager.recordAll(threeLargeOutputs());
    const budget = 900;
    const ctx = manager.assemble({ budget });
    expect(countTokens(ctx.text)).toBeLessThanOrEqual(budget);
    const tools = ctx.messages.filter((m) => m.role === 'tool');
    expect(tools).toHaveLength(3);
    for (const tag of ['alpha', 'beta', 'gamma']) {
      expect(ctx.text).toContain(`${tag} first line`);
      expect(ctx.text).toContain(`${tag} last line`);
    }
    for (const step of ['Step 0', 'Step 1', 'Step 2']) expect(ctx.text).toContain(step);
    // The error in the cut middle of an output is kept between its head and tail.
    expect(tools[1]?.content).toMatch(/\[\.\.\. \d+ tokens omitted \.\.\.\]\nValueError: timeout must be an int\n/);
  });

  it('keeps the newest output whole when the ones before it can still keep their ends', async () => {
    const events = threeLargeOutputs();
    const last = events.at(-1) as Extract<LoopEvent, { kind: 'tool' }>;
    last.text = output('gamma', 25);
    const manager = await createContextManager({ limitTokens: 200_000 });
    manager.recordAll(events);
    const ctx = manager.assemble({ budget: 900 });
    expect(countTokens(ctx.text)).toBeLessThanOrEqual(900);
    expect(ctx.messages.filter((m) => m.role === 'tool').at(-1)?.content).toBe(last.text);
    // The outputs before it are cut to head and tail (several rows), not reduced to summaries.
    expect(ctx.text).not.toContain('[summary;');
    for (const tag of ['alpha', 'beta']) {
      expect(ctx.text).toContain(`${tag} row 3:`);
      expect(ctx.text).toContain(`${tag} last line`);
    }
  });
});

describe('token counts of rendered turns', () => {
  it('adds up message by message to the exact count of the assembled text, whatever an output starts with', async () => {
    const starts = ['  indented start', '/usr/bin/env start', '\n\nblank lines first', 'plain start', '} brace start'];
    const events: LoopEvent[] = [
      { kind: 'system', text: SYSTEM },
      { kind: 'user', text: TASK },
    ];
    starts.forEach((start, i) => {
      events.push(
        {
          kind: 'assistant',
          text: i % 2 ? '' : `Now run ${i} here`,
          toolCalls: [{ id: `c${i}`, name: 'bash', args: { command: `run ${i}` } }],
        },
        { kind: 'tool', callId: `c${i}`, name: 'bash', text: `${start}\n${output(`o${i}`, 40 * (i + 1))}\n  ` },
      );
    });
    // A counter under another name gets no memo: every turn is counted whole.
    const plain = { name: 'o200k-whole', count: (text: string) => countTokens(text) };
    for (const budget of [900, 1500, 4096]) {
      const memoized = await createContextManager({ limitTokens: 200_000 });
      const whole = await createContextManager({ limitTokens: 200_000, counter: plain });
      memoized.recordAll(events);
      whole.recordAll(events);
      const a = memoized.assemble({ budget });
      const b = whole.assemble({ budget });
      expect(a.sections).toEqual(b.sections);
      expect(a.text).toBe(b.text);
      expect(a.sections.filter((s) => s.id.startsWith('turn-')).length).toBeGreaterThan(1);
    }
  });
});
