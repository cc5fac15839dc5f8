import { describe, expect, it } from 'vitest';
import {
  actionAges,
  compactArgs,
  ContextManager,
  FileTracker,
  type LoopEvent,
  PinnedFacts,
  planTurns,
  renderToolCall,
} from '../../src/loop/index.js';
import { failureOf } from '../../src/vocabulary/index.js';

const COST = { verbatim: 100, compact: 60, summary: 30, masked: 5 } as const;
const cost = (_i: number, level: keyof typeof COST) => COST[level];

function call(id: string, name: string, args: Record<string, unknown>, text = ''): LoopEvent[] {
  return [
    { kind: 'assistant', text, toolCalls: [{ id, name, args }] },
    { kind: 'tool', callId: id, name, text: `${name} ${id} first line\nmiddle\n${name} ${id} last line` },
  ];
}

function pinnedFrom(events: { name: string; args: Record<string, unknown>; output: string; isError?: boolean }[]): PinnedFacts {
  const pinned = new PinnedFacts();
  for (const e of events) {
    const failure = failureOf({ name: e.name, args: e.args, output: e.output, ...(e.isError === undefined ? {} : { isError: e.isError }) });
    pinned.recordResult({ name: e.name, args: e.args, output: e.output, failure });
  }
  return pinned;
}

describe('recency by action', () => {
  it('counts a turn’s age in tool calls, so text-only turns and prompts add none', () => {
    // Turns: call, call, text, user, text, call(2 calls), text.
    const calls = [1, 1, 0, 0, 0, 2, 0];
    expect(actionAges(7, (i) => calls[i] as number)).toEqual([3, 2, 2, 2, 2, 0, 0]);
    const plan = planTurns(7, { recentTurns: 3, maskAfterTurns: 6, available: 10_000, cost, calls: (i) => calls[i] as number });
    // The last 3 calls are in turns 1 and 5: everything from turn 1 on stays verbatim.
    expect(plan).toEqual(['summary', 'verbatim', 'verbatim', 'verbatim', 'verbatim', 'verbatim', 'verbatim']);
  });

  it('keeps the last calls verbatim in the context however many answers and prompts follow them', () => {
    const manager = new ContextManager({});
    manager.recordAll([
      { kind: 'system', text: 'You are an agent.' },
      { kind: 'user', text: 'Fix the parser.' },
      ...call('a', 'Read', { file_path: 'src/a.py' }),
      ...call('b', 'Bash', { command: 'pytest -q' }),
      ...call('c', 'Grep', { pattern: 'parse' }),
    ]);
    for (let i = 0; i < 6; i += 1) {
      manager.record({ kind: 'assistant', text: `Thinking aloud, step ${i}.` });
      manager.record({ kind: 'user', text: `And another thought ${i}?` });
    }
    const { text } = manager.assemble({ budget: 4000 });
    for (const id of ['a', 'b', 'c']) expect(text).toContain(`${id} last line`);
  });
});

describe('compactArgs', () => {
  it('shrinks long strings to their first line and size, keeps short arguments whole', () => {
    const body = Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n');
    expect(compactArgs({ file_path: 'src/a.py', old_string: 'a\nb\nc\nd', new_string: body, replace_all: false })).toEqual({
      file_path: 'src/a.py',
      old_string: 'a … [4 lines]',
      new_string: 'line 0 … [12 lines]',
      replace_all: false,
    });
    expect(compactArgs({ edits: [{ old_string: 'x'.repeat(200) }] })).toEqual({ edits: [{ old_string: `${'x'.repeat(159)}… [1 line]` }] });
  });

  it("shrinks an old Edit's bodies before a recent output loses a line", () => {
    const body = Array.from({ length: 150 }, (_, i) => `    value_${i} = compute(value_${i - 1}, ${i})`).join('\n');
    const output = Array.from({ length: 40 }, (_, i) => `test_case_${i} passed`).join('\n');
    const manager = new ContextManager({});
    manager.recordAll([
      { kind: 'user', text: 'Rewrite the module.' },
      ...call('e', 'Edit', { file_path: 'src/mod.py', old_string: body, new_string: `${body}\n    done()` }),
      { kind: 'assistant', text: '', toolCalls: [{ id: 't', name: 'Bash', args: { command: 'pytest' } }] },
      { kind: 'tool', callId: 't', name: 'Bash', text: output },
      { kind: 'assistant', text: '', toolCalls: [{ id: 'u', name: 'Bash', args: { command: 'pytest -k mod' } }] },
      { kind: 'tool', callId: 'u', name: 'Bash', text: output.replace(/test_case/g, 'mod_case') },
    ]);
    const { text, tokens } = manager.assemble({ budget: 1200 });
    expect(tokens).toBeLessThanOrEqual(1200);
    expect(text).toContain('src/mod.py');
    expect(text).toMatch(/value_0 = compute\(value_-1, 0\) … \[150 lines\]/);
    expect(text).not.toContain('value_75 = compute');
    for (let i = 0; i < 40; i += 1) expect(text).toContain(`test_case_${i} passed`);
  });
});

describe('pinned facts', () => {
  it('pins the newest request, the open items of the newest plan, and the newest failure with its telling line', () => {
    const manager = new ContextManager({});
    manager.recordAll([
      { kind: 'system', text: 'You are an agent.' },
      { kind: 'user', text: 'Fix the parser.' },
      ...call('p', 'TodoWrite', {
        todos: [
          { content: 'Reproduce the bug', status: 'completed' },
          { content: 'Fix parse_header', status: 'in_progress' },
          { content: 'Run the whole suite', status: 'pending' },
        ],
      }),
      { kind: 'assistant', text: '', toolCalls: [{ id: 't', name: 'Bash', args: { command: 'node --test' } }] },
      {
        kind: 'tool',
        callId: 't',
        name: 'Bash',
        isError: true,
        text: "TAP version 13\nnot ok 1 - parses\n  ---\n  error: 'Expected values to be strictly equal:'\n  ...\n# duration_ms 5.03",
      },
      { kind: 'user', text: 'Also keep the old header format working.' },
    ]);
    for (let i = 0; i < 30; i += 1) manager.recordAll(call(`r${i}`, 'Read', { file_path: `src/f${i}.py` }));
    const { text, messages } = manager.assemble({ budget: 1500 });
    const pinned = messages.find((m) => m.content.startsWith('## Pinned'))?.content ?? '';
    expect(messages.findIndex((m) => m.content.startsWith('## Pinned'))).toBe(2);
    expect(pinned).toContain('newest request: Also keep the old header format working.');
    expect(pinned).toContain('- Fix parse_header (in progress)');
    expect(pinned).toContain('- Run the whole suite');
    expect(pinned).not.toContain('Reproduce the bug');
    expect(pinned).toContain("newest failure: Bash node --test\n  error: 'Expected values to be strictly equal:'");
    expect(text).not.toContain('TAP version 13');
  });

  it('marks the newest failure fixed once a later run of the same command passes, and not for another command', () => {
    const failing = { name: 'Bash', args: { command: 'npm test' }, output: 'FAIL src/a.test.ts\n  ✕ adds (3 ms)', isError: true };
    const other = { name: 'Bash', args: { command: 'npm run lint' }, output: 'ok', isError: false };
    const passing = { name: 'Bash', args: { command: 'npm test' }, output: 'Tests: 3 passed', isError: false };
    expect(pinnedFrom([failing, other]).render()).toMatch(/^newest failure: Bash npm test\n {2}✕ adds \(3 ms\)$/m);
    expect(pinnedFrom([failing, other, passing]).render()).toContain('newest failure (fixed: a later run of it passed): Bash npm test');
  });

  it('follows TaskCreate and TaskUpdate, and pins nothing before anything happened', () => {
    expect(new PinnedFacts().render()).toBe('');
    const pinned = pinnedFrom([
      { name: 'TaskCreate', args: { subject: 'Write the parser' }, output: 'Task #1 created successfully: Write the parser' },
      { name: 'TaskCreate', args: { subject: 'Document it' }, output: 'Task #2 created successfully: Document it' },
      { name: 'TaskUpdate', args: { taskId: '1', status: 'completed' }, output: 'Updated task #1' },
    ]);
    expect(pinned.openPlan().map((i) => i.text)).toEqual(['Document it']);
  });
});

describe('edited files', () => {
  it('lists them compactly, one line per directory, newest first', () => {
    const files = new FileTracker();
    files.recordEdit('src/loop/turn.ts', 1);
    files.recordEdit('README.md', 2);
    files.recordEdit('src/loop/plan-turns.ts', 3);
    files.recordEdit('src/loop/plan-turns.ts', 4);
    files.recordEdit('C:\\work\\app.py', 5);
    expect(files.render()).toBe('- C:\\work\\: app.py\n- src/loop/: plan-turns.ts (2 edits), turn.ts\n- README.md');
  });

  it('names every file before any detail when the state is over its cap', () => {
    const manager = new ContextManager({});
    const events: LoopEvent[] = [{ kind: 'user', text: 'Fix the app.' }];
    for (let i = 0; i < 40; i += 1) {
      const path = `/Users/someone/projects/app/src/module_${i}/implementation_${i}.py`;
      const call = { id: `e${i}`, name: 'Edit', args: { file_path: path, old_string: 'a', new_string: 'b' } };
      events.push({ kind: 'assistant', text: '', toolCalls: [call] }, { kind: 'tool', callId: `e${i}`, name: 'Edit', text: 'ok' });
      events.push(
        { kind: 'assistant', text: '', toolCalls: [{ ...call, id: `f${i}` }] },
        { kind: 'tool', callId: `f${i}`, name: 'Edit', text: 'ok' },
      );
    }
    manager.recordAll(events);
    expect(manager.state.render()).toContain('implementation_0.py (2 edits)');
    const state = manager.assemble({ budget: 2048 }).messages.find((m) => m.content.startsWith('## Loop state'));
    expect(state?.content).not.toContain('(2 edits)');
    expect(state?.content).toContain('implementation_39.py');
  });

  it('reads the paths of a Codex apply_patch from the patch, and skips a failed edit', () => {
    const patch = '*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** Add File: docs/notes.md\n+hello\n*** End Patch';
    const manager = new ContextManager({});
    manager.recordAll([
      { kind: 'user', text: 'Fix the app.' },
      { kind: 'assistant', text: '', toolCalls: [{ id: 'p', name: 'apply_patch', args: { input: patch } }] },
      { kind: 'tool', callId: 'p', name: 'apply_patch', text: 'Success. Updated the following files:\nM src/app.py\nA docs/notes.md' },
      {
        kind: 'assistant',
        text: '',
        toolCalls: [{ id: 'q', name: 'apply_patch', args: { input: patch.replace(/src\/app/g, 'src/other') } }],
      },
      {
        kind: 'tool',
        callId: 'q',
        name: 'apply_patch',
        isError: true,
        text: 'apply_patch verification failed: Failed to find expected lines in src/other.py',
      },
    ]);
    expect(
      manager.state.files
        .modifiedFiles()
        .map((f) => f.path)
        .sort(),
    ).toEqual(['docs/notes.md', 'src/app.py']);
  });
});

describe('display forms of calls', () => {
  it('names the key argument when the arguments do not show it (a Codex patch, a heredoc), and only then', () => {
    const patch = '*** Begin Patch\n*** Update File: opk/cli.py\n@@\n-a\n+b\n*** End Patch';
    expect(renderToolCall({ name: 'shell', args: { command: ['apply_patch', patch] } })).toMatch(
      /^shell apply_patch opk\/cli\.py \{"command"/,
    );
    expect(renderToolCall({ name: 'Read', args: { file_path: 'src/a.py' } })).toBe('Read {"file_path":"src/a.py"}');
  });

  it("keeps an output's first and last line when it shows only its summary", () => {
    const out = [
      'collected 40 items',
      ...Array.from({ length: 300 }, (_, i) => `tests/test_${i}.py::test_ok PASSED`),
      '=== 300 passed in 2.1s ===',
    ];
    const manager = new ContextManager({});
    manager.recordAll([{ kind: 'user', text: 'Run the tests.' }, ...call('t0', 'Bash', { command: 'pytest -v' })]);
    manager.recordAll([
      { kind: 'assistant', text: '', toolCalls: [{ id: 't1', name: 'Bash', args: { command: 'pytest -v tests' } }] },
      { kind: 'tool', callId: 't1', name: 'Bash', text: out.join('\n') },
    ]);
    for (let i = 2; i < 5; i += 1) manager.recordAll(call(`t${i}`, 'Bash', { command: `echo ${i}` }));
    const { text } = manager.assemble({ budget: 700, recentTurns: 1 });
    expect(text).toContain('[summary; fetch_raw(');
    expect(text).toContain('collected 40 items');
    expect(text).toContain('=== 300 passed in 2.1s ===');
  });
});

describe('error lines in the loop state', () => {
  const view = (id: string) => {
    const lines = ['[File: server.py (30 lines total)]', ...Array.from({ length: 28 }, (_, i) => `${i + 1}: x = ${i}`)];
    lines[24] = '24:     except ValueError:';
    return [
      { kind: 'assistant', text: '', toolCalls: [{ id, name: 'open', args: { command: 'open server.py' } }] },
      { kind: 'tool', callId: id, name: 'open', text: lines.join('\n') },
    ] satisfies LoopEvent[];
  };

  it("keeps a file view's error-looking lines (where the code raises or catches) once the view left the window", () => {
    const manager = new ContextManager({});
    manager.recordAll([{ kind: 'user', text: 'Solve the challenge.' }, ...view('v0')]);
    for (let i = 1; i < 5; i += 1) manager.recordAll(call(`c${i}`, 'bash', { command: `echo ${i}` }));
    expect(manager.state.render()).toContain('- turn 1: 24: except ValueError:');
  });

  it('keeps no error-looking lines of searches and listings', () => {
    const manager = new ContextManager({});
    manager.recordAll([
      { kind: 'user', text: 'Find the handler.' },
      { kind: 'assistant', text: '', toolCalls: [{ id: 'g', name: 'Grep', args: { pattern: 'ValueError' } }] },
      { kind: 'tool', callId: 'g', name: 'Grep', text: 'server.py:24:    except ValueError:' },
    ]);
    expect(manager.state.render()).not.toContain('ValueError');
  });
});

describe('the newest turn at a small budget', () => {
  it("cuts the model's long text to head and tail before masking the newest output", () => {
    const hex = Array.from({ length: 60 }, (_, i) => `0x${(i * 7919).toString(16).padStart(8, '0')}A76EDD727245046F0A24075824`).join(',');
    const command = `RsaCtfTool.py --publickey "pub1.pub" --decrypt ${hex}`;
    const output = [
      '[*] Multikey mode',
      ...Array.from({ length: 60 }, (_, i) => `[*] attack ${i} running`),
      '[!] partial_d internal error...',
    ];
    const manager = new ContextManager({});
    manager.recordAll([
      { kind: 'user', text: 'Decrypt the capsule.' },
      {
        kind: 'assistant',
        text: `Try the Hastad attack.\n\`\`\`\n${command}\n\`\`\``,
        toolCalls: [{ id: 'r', name: 'bash', args: { command } }],
      },
      { kind: 'tool', callId: 'r', name: 'bash', text: output.join('\n') },
    ]);
    const { text } = manager.assemble({ budget: 900 });
    expect(text).not.toContain('masked: 62 lines');
    expect(text).toContain('[!] partial_d internal error...');
    expect(text).toContain('Try the Hastad attack.');
  });
});
