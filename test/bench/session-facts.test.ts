/** The one fact extractor and scorer shared by the loop's `bench context` and the handoff bench. */
import { describe, expect, it } from 'vitest';
import { extractSessionFacts, type FactEvent, linesKept, scoreSessionFacts } from '../../src/bench/index.js';

const tool = (name: string, args: unknown, output: string, failed = false): FactEvent => ({
  type: 'tool',
  call: { name, args, output, failed },
});

const session: FactEvent[] = [
  { type: 'user', text: 'Fix the failing upload test in api/routes.py.\nIt returns 200 for an empty body.' },
  { type: 'assistant', text: 'Looking at the route.' },
  tool(
    'TodoWrite',
    {
      todos: [
        { content: 'Reproduce', status: 'completed' },
        { content: 'Fix the route', status: 'in_progress' },
        { content: 'Run the suite', status: 'pending' },
      ],
    },
    'ok',
  ),
  tool('Read', { file_path: 'C:\\proj\\api\\routes.py' }, '1→import x\n2→def upload(): ...'),
  tool('Bash', { command: 'pytest -q' }, 'Exit code 1\n..F\nE       assert 200 == 400\n1 failed, 2 passed', true),
  tool('Edit', { file_path: 'C:\\proj\\api\\routes.py', old_string: 'a', new_string: 'b' }, 'The file was updated.'),
  tool('Edit', { file_path: 'api/other.py', old_string: 'a', new_string: 'b' }, 'String to replace not found in file.', true),
  { type: 'user', text: 'Also keep the 413 for huge bodies.' },
  tool('Bash', { command: 'pytest -q tests/test_api.py' }, '...\n3 passed in 0.2s'),
];

describe('extractSessionFacts', () => {
  it('reads the six facts: task head, files edited by calls that did not fail, newest error line, last actions, open plan, newest request', () => {
    const facts = extractSessionFacts(session);
    expect(facts.task).toBe('Fix the failing upload test in api/routes.py. It returns 200 for an empty body.');
    expect(facts.filesEdited).toEqual(['C:\\proj\\api\\routes.py']);
    expect(facts.newestError).toBe('String to replace not found in file.');
    expect(facts.lastActions).toEqual([
      'C:\\proj\\api\\routes.py',
      'The file was updated.',
      'api/other.py',
      'String to replace not found in file.',
      'pytest -q tests/test_api.py',
      '3 passed in 0.2s',
    ]);
    expect(facts.openPlan).toEqual(['Fix the route', 'Run the suite']);
    expect(facts.newestRequest).toBe('Also keep the 413 for huge bodies.');
  });

  it('reads the issue text of a SWE-agent task as the task', () => {
    const facts = extractSessionFacts([
      { type: 'user', text: 'We are solving this.\nISSUE:\nTimeDelta rounds wrong\nINSTRUCTIONS:\nUse the tools.' },
    ]);
    expect(facts.task).toBe('TimeDelta rounds wrong');
  });
});

describe('scoreSessionFacts', () => {
  it('finds facts as written or inside JSON arguments, a file by its base name, and scores only the facts a session has', () => {
    const facts = extractSessionFacts(session);
    const context = [
      'Fix the failing upload test in api/routes.py. It returns   200 for an empty body.',
      '→ Edit {"file_path":"C:\\\\proj\\\\api\\\\routes.py"}',
      'String to replace not found in file.',
      'Also keep the 413 for huge bodies.',
    ].join('\n');
    const scores = scoreSessionFacts(facts, context);
    expect(scores.task).toBe(1);
    expect(scores.files_edited).toBe(1);
    expect(scores.newest_error).toBe(1);
    expect(scores.open_plan).toBe(0);
    expect(scores.newest_request).toBe(1);
    expect(scores.last_actions).toBeCloseTo(2 / 6);
    expect(scoreSessionFacts({ filesEdited: [], lastActions: [], openPlan: [] }, 'x')).toEqual({});
  });

  it("measures the share of a text's lines kept", () => {
    expect(linesKept('You are a coding agent.\nAlways run the tests.\n\nok', 'You are a coding agent.')).toBe(0.5);
    expect(linesKept('', 'x')).toBeUndefined();
  });
});
