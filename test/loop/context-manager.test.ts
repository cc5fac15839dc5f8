import { describe, expect, it } from 'vitest';
import { ContextManager, type ContextMessage, createContextManager, createSnippetExtractor, type LoopEvent } from '../../src/loop/index.js';
import type { Summarizer } from '../../src/summarize/index.js';
import { countTokens } from '../../src/tokens/index.js';

const SYSTEM = 'You are a careful coding agent. Use the tools to read, edit and test code.';
const TASK = 'Fix the bug: parseConfig() drops the "timeout" key when the config file has comments. Keep the public API unchanged.';

function fileView(path: string, start: number, count: number): string {
  const lines = [`[File: ${path} (400 lines total)]`];
  for (let i = 0; i < count; i += 1) {
    const n = start + i;
    lines.push(i % 8 === 0 ? `${n}:def handler_${n}(value):` : `${n}:    value = value + ${n}  # keep the running total for step ${n}`);
  }
  return lines.join('\n');
}

/** A loop of `turns` read/run turns; every third turn runs a command that fails. */
function loopEvents(turns: number): LoopEvent[] {
  const events: LoopEvent[] = [
    { kind: 'system', text: SYSTEM },
    { kind: 'user', text: TASK },
  ];
  for (let t = 0; t < turns; t += 1) {
    const id = `call-${t}`;
    if (t % 3 === 2) {
      events.push({
        kind: 'assistant',
        text: `Run the tests again (turn ${t}).`,
        toolCalls: [{ id, name: 'bash', args: { command: 'pytest -q' } }],
      });
      const out = Array.from({ length: 60 }, (_, i) => `tests/test_${i}.py .... ok`);
      out.push(`FAILED tests/test_config.py::test_timeout_${t} - KeyError: 'timeout'`);
      events.push({ kind: 'tool', callId: id, name: 'bash', text: out.join('\n'), exitCode: 1 });
    } else {
      events.push({
        kind: 'assistant',
        text: `Read more of config.py (turn ${t}).`,
        toolCalls: [{ id, name: 'read_file', args: { path: 'src/config.py' } }],
      });
      events.push({ kind: 'tool', callId: id, name: 'read_file', text: fileView('src/config.py', 1 + t * 40, 40) });
    }
  }
  return events;
}

function assertPairsIntact(messages: ContextMessage[]): void {
  for (let i = 0; i < messages.length; i += 1) {
    const m = messages[i] as ContextMessage;
    if (m.role === 'tool') {
      // The result follows its call's assistant message, with only sibling results between.
      let j = i - 1;
      while (j >= 0 && messages[j]?.role === 'tool') j -= 1;
      const call = messages[j];
      expect(call?.role).toBe('assistant');
      expect(call?.role === 'assistant' && call.toolCalls?.some((c) => c.id === m.callId)).toBe(true);
    }
    if (m.role === 'assistant') {
      for (const c of m.toolCalls ?? []) {
        const results = messages.slice(i + 1).filter((x) => x.role === 'tool' && x.callId === c.id);
        expect(results.length).toBe(1);
      }
    }
  }
}

async function managerWith(events: LoopEvent[]): Promise<ContextManager> {
  const manager = await createContextManager({ limitTokens: 200_000 });
  manager.recordAll(events);
  return manager;
}

describe('context assembly', () => {
  it('never exceeds the budget, measured by re-tokenizing the assembled text', async () => {
    const events = loopEvents(40);
    const manager = await createContextManager();
    let step = 0;
    for (const e of events) {
      manager.record(e);
      if (e.kind !== 'tool') continue;
      step += 1;
      for (const budget of [1024, 2048, 4096]) {
        const ctx = manager.assemble({ budget });
        expect(countTokens(ctx.text)).toBeLessThanOrEqual(budget);
      }
    }
    expect(step).toBe(40);
  });

  it('keeps the system message first and never drops the goal, even at a tiny budget', async () => {
    const manager = await managerWith(loopEvents(30));
    for (const budget of [512, 1200, 8000]) {
      const ctx = manager.assemble({ budget });
      expect(ctx.messages[0]).toEqual({ role: 'system', content: SYSTEM });
      expect(ctx.messages[1]?.role).toBe('user');
      expect(ctx.text).toContain('Fix the bug: parseConfig() drops the "timeout" key');
    }
  });

  it('never separates a tool call from its result', async () => {
    const manager = await managerWith(loopEvents(25));
    for (const budget of [700, 1500, 3000, 100_000]) assertPairsIntact(manager.assemble({ budget }).messages);
  });

  it('masks older tool outputs first, with a one-line placeholder naming the tool, its arguments and how to fetch it', async () => {
    const manager = await managerWith(loopEvents(21));
    const ctx = manager.assemble({ budget: 3000 });
    const masked = ctx.messages.filter((m) => m.role === 'tool' && m.content.includes('masked'));
    expect(masked.length).toBeGreaterThan(0);
    const first = masked.find((m) => m.role === 'tool' && m.name === 'read_file') as Extract<ContextMessage, { role: 'tool' }>;
    expect(first.content.split('\n')).toHaveLength(1);
    expect(first.content).toMatch(/output of read_file src\/config\.py masked: \d+ lines; fetch_raw\("r\d+"\)/);
    const rawId = /fetch_raw\("(r\d+)"\)/.exec(first.content)?.[1] as string;
    expect(manager.fetchRaw(rawId)).toContain('[File: src/config.py (400 lines total)]');
    // The newest outputs are still verbatim.
    const tools = ctx.messages.filter((m) => m.role === 'tool');
    expect(tools.at(-1)?.content).toContain('FAILED tests/test_config.py');
    expect(tools.at(-1)?.content).toContain('tests/test_0.py .... ok');
  });

  it('keeps head and tail of a single huge output around an omission marker', async () => {
    const huge = Array.from({ length: 3000 }, (_, i) => `row ${i}: ${'x'.repeat(20)}`).join('\n');
    const manager = await managerWith([
      { kind: 'system', text: SYSTEM },
      { kind: 'user', text: TASK },
      { kind: 'assistant', text: 'Dump the table.', toolCalls: [{ id: 'c1', name: 'bash', args: { command: 'cat big.csv' } }] },
      { kind: 'tool', callId: 'c1', name: 'bash', text: huge },
    ]);
    const ctx = manager.assemble({ budget: 2000 });
    const tool = ctx.messages.find((m) => m.role === 'tool');
    expect(tool?.content).toContain('row 0:');
    expect(tool?.content).toContain('row 2999:');
    expect(tool?.content).toMatch(/\[\.\.\. \d+ tokens omitted \.\.\.\]/);
    expect(countTokens(ctx.text)).toBeLessThanOrEqual(2000);
  });

  it('puts the loop state last: recent errors, modified files and functions, key decisions', async () => {
    const events = loopEvents(6);
    events.push(
      {
        kind: 'assistant',
        text: 'The issue is that comments are stripped before keys are parsed. We should strip them after.',
        toolCalls: [{ id: 'e1', name: 'edit', args: { command: 'edit 9:12\n    value = strip(value)\nend_of_edit' } }],
      },
      { kind: 'tool', callId: 'e1', name: 'edit', text: fileView('src/config.py', 1, 40), openFile: 'src/config.py' },
    );
    const manager = await managerWith(events);
    const ctx = manager.assemble({ budget: 6000 });
    const last = ctx.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content).toMatch(/^## Loop state/);
    expect(last?.content).toContain("FAILED tests/test_config.py::test_timeout_5 - KeyError: 'timeout'");
    expect(last?.content).toContain('- src/: config.py (handler_9)');
    expect(last?.content).toContain('The issue is that comments are stripped before keys are parsed.');
  });

  it('includes relevant code snippets marked path:start-end from summarized reads', async () => {
    const manager = await managerWith(loopEvents(12));
    const ctx = manager.assemble({ budget: 8000 });
    expect(ctx.text).toContain('## Relevant code');
    expect(ctx.text).toMatch(/```src\/config\.py:\d+-\d+\ndef handler_\d+\(value\):/);
    const marks = [...ctx.text.matchAll(/```(src\/config\.py:\d+-\d+)/g)].map((m) => m[1]);
    expect(new Set(marks).size).toBe(marks.length);
  });

  it('keeps the earlier context as an identical prefix between compactions', async () => {
    const events = loopEvents(30);
    const manager = await createContextManager();
    let previous: string | undefined;
    let stableSteps = 0;
    for (const e of events) {
      manager.record(e);
      if (e.kind !== 'tool') continue;
      const ctx = manager.assemble({ budget: 6000 });
      if (previous !== undefined && !ctx.compacted) {
        // Append-only: the whole previous context, loop state included, is repeated verbatim.
        expect(ctx.text.startsWith(previous)).toBe(true);
        expect(ctx.text.length).toBeGreaterThan(previous.length);
        stableSteps += 1;
      }
      if (ctx.compacted) expect(ctx.messages.at(-1)?.content).toMatch(/^## Loop state/);
      previous = ctx.text;
    }
    expect(stableSteps).toBeGreaterThan(10);
  });

  it('parses file views only when needed: recent ones at a compaction, never old ones that cannot rank', async () => {
    const extractor = await createSnippetExtractor();
    const manager = new ContextManager({ limitTokens: 200_000 }, extractor);
    const events: LoopEvent[] = [
      { kind: 'system', text: SYSTEM },
      { kind: 'user', text: TASK },
    ];
    // 30 reads of 30 different files nobody mentions or edits again.
    for (let t = 0; t < 30; t += 1) {
      events.push({
        kind: 'assistant',
        text: `Look at module ${t}.`,
        toolCalls: [{ id: `r${t}`, name: 'read_file', args: { path: `pkg/m${t}.py` } }],
      });
      events.push({ kind: 'tool', callId: `r${t}`, name: 'read_file', text: fileView(`pkg/m${t}.py`, 1 + t * 16, 16) });
    }
    manager.recordAll(events);
    expect(extractor.parseCount).toBe(0);
    const ctx = manager.assemble({ budget: 16_000 });
    // Only views from the last 12 turns were parsed, and the code block draws on them.
    expect(extractor.parseCount).toBe(12);
    expect(ctx.text).toMatch(/```pkg\/m2\d\.py:\d+-\d+/);
    expect(ctx.text).not.toMatch(/```pkg\/m1?\d\.py:/);
  });

  it('still offers an old view of an edited file, and maps the edit to its functions', async () => {
    const extractor = await createSnippetExtractor();
    const manager = new ContextManager({ limitTokens: 200_000 }, extractor);
    const events: LoopEvent[] = [
      { kind: 'system', text: SYSTEM },
      { kind: 'user', text: TASK },
    ];
    events.push({
      kind: 'assistant',
      text: 'Open the target.',
      toolCalls: [{ id: 'o', name: 'read_file', args: { path: 'src/target.py' } }],
    });
    events.push({ kind: 'tool', callId: 'o', name: 'read_file', text: fileView('src/target.py', 1, 24) });
    for (let t = 0; t < 20; t += 1) {
      events.push({
        kind: 'assistant',
        text: `Run step ${t}.`,
        toolCalls: [{ id: `c${t}`, name: 'bash', args: { command: `echo ${t}` } }],
      });
      events.push({ kind: 'tool', callId: `c${t}`, name: 'bash', text: `${t}` });
    }
    // A SWE-agent edit of the open file whose result shows no window.
    events.push({
      kind: 'assistant',
      text: 'Fix it.',
      toolCalls: [{ id: 'e', name: 'edit', args: { command: 'edit 10:11\n    value = 0\nend_of_edit' } }],
    });
    events.push({ kind: 'tool', callId: 'e', name: 'edit', text: 'File updated.', openFile: 'src/target.py' });
    manager.recordAll(events);
    const ctx = manager.assemble({ budget: 16_000 });
    expect(ctx.text).toContain('- src/: target.py (handler_9)');
    expect(ctx.text).toMatch(/```src\/target\.py:9-\d+\ndef handler_9/);
  });

  it('uses an optional LLM summarizer in the background and falls back to the processor summary', async () => {
    const pending: ((text: string) => void)[] = [];
    const failing: ((error: Error) => void)[] = [];
    // A real Summarizer implementation whose answers the test releases by hand.
    const summarizer: Summarizer = {
      id: 'test-llm',
      summarize: () =>
        new Promise<string>((resolve, reject) => {
          pending.push(resolve);
          failing.push(reject);
        }),
    };
    const manager = await createContextManager({ summarizer, recentTurns: 1, compactEveryTurns: 0 });
    manager.recordAll(loopEvents(2));
    expect(pending).toHaveLength(2);
    // Assembly is synchronous: it never waits for the summarizer.
    expect(manager.assemble({ budget: 8000 }).text).not.toContain('LLM SUMMARY');
    pending[0]?.('LLM SUMMARY: the first window shows handler definitions.');
    failing[1]?.(new Error('model unavailable'));
    await new Promise((resolve) => setImmediate(resolve));
    manager.recordAll(loopEvents(3).slice(-2));
    const text = manager.assemble({ budget: 8000 }).text;
    expect(text).toContain('LLM SUMMARY: the first window shows handler definitions.');
    expect(text).toContain('src/config.py lines 41-80 of 400');
  });

  it('keeps a later user message and an unmatched tool result as their own turns, never as the goal', async () => {
    const manager = await createContextManager();
    manager.record({ kind: 'tool', callId: 'x', name: 'bash', text: 'stray output' });
    manager.recordAll([
      { kind: 'user', text: TASK },
      { kind: 'assistant', text: 'Checking.', toolCalls: [{ id: 'c1', name: 'bash', args: { command: 'ls' } }] },
      { kind: 'tool', callId: 'c1', name: 'bash', text: 'a.py' },
      { kind: 'user', text: 'Also keep the CLI flags unchanged.' },
    ]);
    const ctx = manager.assemble({ budget: 4000 });
    expect(ctx.messages[0]).toEqual({ role: 'user', content: TASK });
    expect(ctx.text).toContain('[tool bash]\nstray output');
    expect(ctx.messages.some((m) => m.role === 'user' && m.content === 'Also keep the CLI flags unchanged.')).toBe(true);
  });
});

describe('the default context window', () => {
  it('is the same for no model and for a model the table does not know', () => {
    const none = new ContextManager({});
    const unknown = new ContextManager({ model: 'deepseek-coder' });
    expect(unknown.options.budget).toBe(none.options.budget);
    expect(none.options.budget).toBe(128_000 - 4_096);
  });
});
