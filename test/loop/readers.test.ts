import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import {
  extractKeyFacts,
  readOpenHandsEvents,
  readSweAgentTrajectory,
  readTrajectories,
  readTrajectory,
  scoreFacts,
} from '../../src/bench/index.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'loop');

describe('trajectory readers', () => {
  it('reads the older SWE-agent schema: demo as reference, task, text actions, observations with the open file', async () => {
    const t = await readTrajectory(path.join(fixtures, 'swe-agent-old.traj'));
    expect(t.format).toBe('swe-agent');
    expect(t.events.map((e) => e.kind)).toEqual([
      'system',
      'user',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    expect(t.events[1]).toMatchObject({ kind: 'user', reference: true });
    expect(t.task).toContain('ISSUE:\nmean() crashes on an empty list');
    expect(t.steps).toEqual([3, 5, 7, 9]);
    expect(t.events[7]).toMatchObject({ kind: 'assistant', toolCalls: [{ id: 'step-2', name: 'edit' }] });
    expect(t.events[8]).toMatchObject({ kind: 'tool', callId: 'step-2', name: 'edit', openFile: '/repo/stats.py' });
    expect(t.patchPaths).toEqual(['stats.py']);
  });

  it('reads the newer SWE-agent schema: function tool calls answered by tool messages', async () => {
    const t = await readTrajectory(path.join(fixtures, 'swe-agent-new.traj'));
    expect(t.steps).toHaveLength(3);
    expect(t.events[2]).toMatchObject({
      kind: 'assistant',
      toolCalls: [{ id: 'call_0', name: 'str_replace_editor', args: { command: 'view', path: '/repo/stats.py' } }],
    });
    expect(t.events[3]).toMatchObject({ kind: 'tool', callId: 'call_0', name: 'str_replace_editor', openFile: '/repo/stats.py' });
  });

  it('reads OpenHands events: actions as tool calls, observations by cause, bookkeeping skipped', async () => {
    const t = await readTrajectory(path.join(fixtures, 'openhands-events.jsonl'));
    expect(t.format).toBe('openhands');
    expect(t.events.map((e) => e.kind)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(t.events[2]).toMatchObject({
      kind: 'assistant',
      text: 'Reproduce first.',
      toolCalls: [{ id: 'toolu_1', name: 'execute_bash', args: { command: 'python check.py' } }],
    });
    expect(t.events[3]).toMatchObject({ kind: 'tool', callId: 'toolu_1', exitCode: 1 });
    expect(t.task).toBe('Fix mean() so it returns None for an empty list in stats.py.');
  });

  it('reads OpenHands evaluation output as one trajectory per instance (event and pair histories)', async () => {
    const [first, second] = await readTrajectories(path.join(fixtures, 'openhands-output.jsonl'));
    expect(first).toMatchObject({ id: 'openhands-output.jsonl#demo__stats-1', patchPaths: ['stats.py'] });
    expect(first?.steps).toHaveLength(3);
    expect(second?.task).toBe('Explain the layout.');
    expect(second?.events.map((e) => e.kind)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(second?.steps).toEqual([1, 3]);
    expect(second?.events[2]).toMatchObject({ kind: 'tool', callId: 'oh-1', text: 'stats.py\ncheck.py', exitCode: 0 });
  });

  it('names the file and line of bad input', async () => {
    expect(() => readOpenHandsEvents('{"id":1}\nnot json\n', 'x.jsonl')).toThrow(/x\.jsonl: line 2 is not JSON/);
    expect(() => readSweAgentTrajectory({ history: [{ role: 'user', content: 'x' }, { role: 7 }] }, 'y.traj')).toThrow(
      /y\.traj: field history\.1\.role/,
    );
    expect(() => readSweAgentTrajectory({ info: {} }, 'z.traj')).toThrow(/z\.traj: not a SWE-agent trajectory/);
    const missing = await readTrajectory(path.join(fixtures, 'nope.traj')).catch((e: unknown) => e);
    expect(isBatonError(missing, 'NOT_FOUND')).toBe(true);
  });
});

describe('key facts', () => {
  it('extracts goal, edited paths, last error and the last three turns by rule', async () => {
    const t = await readTrajectory(path.join(fixtures, 'swe-agent-old.traj'));
    const facts = extractKeyFacts(t, t.steps[3] as number);
    expect(facts.goal).toBe('mean() crashes on an empty list Calling stats.mean([]) raises ZeroDivisionError instead of returning None.');
    expect(facts.editedPaths).toContain('/repo/stats.py');
    expect(facts.lastError).toBe('ZeroDivisionError: division by zero');
    expect(facts.last3).toHaveLength(6);
    const score = scoreFacts(facts, `${facts.goal}\nstats.py\nZeroDivisionError:   division by zero`);
    expect(score).toMatchObject({ goal: 1, edited_paths: 1, last_error: 1, last3: 0 });
  });

  it("takes an edit's file from its own step, where the state was saved before the step", () => {
    // Older SWE-agent files store each step's state from before it: `open b.py` still shows a.py.
    const state = (file: string) => JSON.stringify({ open_file: file, working_dir: '/repo' });
    const step = (action: string, observation: string, open: string) => ({
      action,
      observation,
      response: action,
      thought: '',
      state: state(open),
    });
    const t = readSweAgentTrajectory(
      {
        trajectory: [
          step('open a.py', '[File: /repo/a.py (3 lines total)]\n1:x = 1', 'n/a'),
          step('open b.py', '[File: /repo/b.py (3 lines total)]\n1:y = 2', '/repo/a.py'),
          step('edit 1:1\ny = 3\nend_of_edit', '[File: /repo/b.py (3 lines total)]\n1:y = 3', '/repo/b.py'),
          step('submit', '', '/repo/b.py'),
        ],
        info: { submission: '' },
      },
      'inline.traj',
    );
    expect(extractKeyFacts(t, t.steps[3] as number).editedPaths).toEqual(['/repo/b.py']);
  });
});
