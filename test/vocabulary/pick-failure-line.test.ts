/** The one failure-line picker, on outputs written in the shapes the real sessions show. */
import { describe, expect, it } from 'vitest';
import { FAILURE_LINE_MAX_CHARS, pickFailureLine } from '../../src/vocabulary/index.js';

const nodeTestRunner = [
  'TAP version 13',
  '# Subtest: adds two numbers',
  'not ok 1 - adds two numbers',
  '  ---',
  '  duration_ms: 1.2',
  "  location: '/w/test/add.test.js:4:1'",
  "  failureType: 'testCodeFailure'",
  "  error: 'Expected values to be strictly equal:\\n\\n3 !== 4\\n'",
  '  code: ERR_ASSERTION',
  '  stack: |-',
  '    TestContext.<anonymous> (file:///w/test/add.test.js:5:10)',
  '  ...',
  '1..1',
  '# tests 1',
  '# pass 0',
  '# fail 1',
  '# duration_ms 5.037029',
].join('\n');

describe('pickFailureLine', () => {
  it("picks Node's test-runner assertion, never the banner or the timing", () => {
    const line = pickFailureLine(nodeTestRunner);
    expect(line).toBe("error: 'Expected values to be strictly equal:\\n\\n3 !== 4\\n'");
    expect(pickFailureLine(`Exit code 1\n${nodeTestRunner}`)).toBe(line);
  });

  it('picks `not ok` when a TAP stream has no assertion text', () => {
    expect(pickFailureLine('TAP version 13\nok 1 - parses\nnot ok 2 - renders\n1..2\n# duration_ms 3.1')).toBe('not ok 2 - renders');
  });

  it("picks pytest's assertion (`E` lines) over the summary, and the exception line of a traceback", () => {
    const pytest = [
      '============================= test session starts ==============================',
      'collected 3 items',
      '',
      'tests/test_api.py ..F                                                    [100%]',
      '',
      '=================================== FAILURES ===================================',
      '___________________________ test_upload_rejects_empty ___________________________',
      '    def test_upload_rejects_empty(client):',
      '>       assert r.status_code == 400',
      'E       assert 200 == 400',
      '',
      'tests/test_api.py:12: AssertionError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_api.py::test_upload_rejects_empty - assert 200 == 400',
      '========================= 1 failed, 2 passed in 0.31s =========================',
    ].join('\n');
    expect(pickFailureLine(pytest)).toBe('E assert 200 == 400');
    const traceback =
      'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n    import docx\nModuleNotFoundError: No module named \'docx\'';
    expect(pickFailureLine(`Exit code 1\n${traceback}`)).toBe("ModuleNotFoundError: No module named 'docx'");
  });

  it('picks the first compiler error of a long build log', () => {
    const cargo = [
      '   Compiling proc-macro2 v1.0.105',
      '   Compiling anstyle v1.0.13',
      "error[E0463]: can't find crate for `std`",
      '  |',
      'error: could not compile `x`',
    ].join('\n');
    expect(pickFailureLine(`Exit code 101\n${cargo}`)).toBe("error[E0463]: can't find crate for `std`");
  });

  it('picks `FAIL` from jest or vitest when no assertion line is there', () => {
    expect(pickFailureLine(' RUN  v2.1.0 /w\n\n FAIL  src/a.test.ts > parses\n\n Test Files  1 failed (1)\n Duration  1.20s')).toBe(
      'FAIL src/a.test.ts > parses',
    );
  });

  it("never picks a warning or Copilot's still-running notice", () => {
    expect(pickFailureLine("warning: could not open directory 'x/': Permission denied\nfatal: not a git repository")).toBe(
      'fatal: not a git repository',
    );
    const waiting = '<waiting for command with sessionId: main to exit timed out after 30 seconds. try again with read_powershell>';
    expect(pickFailureLine(waiting)).toBeUndefined();
  });

  it("picks jest's failed test (`✕`) over the suite's FAIL line", () => {
    const jest = 'FAIL src/sum.test.js\n  sum\n    ✓ adds (2 ms)\n    ✕ subtracts (3 ms)\n\nTests:       1 failed, 1 passed, 2 total';
    expect(pickFailureLine(jest)).toBe('✕ subtracts (3 ms)');
  });

  it("reads through the clients' wrappers: Codex headers and JSON, Gemini's block, Claude's tool_use_error, Codex's sandbox", () => {
    expect(
      pickFailureLine(
        'Chunk ID: 90bb0a\nWall time: 0.0517 seconds\nProcess exited with code 127\nOriginal token count: 16\nOutput:\n/bin/bash: line 1: /speckit.specify: No such file or directory\n',
      ),
    ).toBe('/bin/bash: line 1: /speckit.specify: No such file or directory');
    expect(pickFailureLine('{"output":"bash: pwsh: command not found\\n","metadata":{"exit_code":127,"duration_seconds":4.1}}')).toBe(
      'bash: pwsh: command not found',
    );
    expect(
      pickFailureLine(
        "Command: git checkout x\nDirectory: (root)\nOutput: error: pathspec 'x' did not match any file(s) known to git\nError: (none)\nExit Code: 1\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 5580",
      ),
    ).toBe("error: pathspec 'x' did not match any file(s) known to git");
    expect(pickFailureLine('<tool_use_error>String to replace not found in file.\nString: foo</tool_use_error>')).toBe(
      'String to replace not found in file.',
    );
    expect(
      pickFailureLine(
        'failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 2, stdout: , stderr: bash: line 1: dist: command not found\n',
      ),
    ).toBe('bash: line 1: dist: command not found');
  });

  it('never returns a fragment cut by a tail, a stack frame or a rule line', () => {
    expect(pickFailureLine('…n_ms: 5.037029\nnpm ERR! Test failed.  See above for more details.')).toBe(
      'npm ERR! Test failed. See above for more details.',
    );
    expect(pickFailureLine('TypeError: x is not a function\n    at f (/w/a.js:1:2)\n    at g (/w/b.js:3:4)\n=====')).toBe(
      'TypeError: x is not a function',
    );
  });

  it("falls back to the first line after the tail's blank line, else the last line", () => {
    expect(pickFailureLine('building...\ncompiled 12 files\n\nthe server did not answer on port 8006\nretrying later')).toBe(
      'the server did not answer on port 8006',
    );
    expect(pickFailureLine('one\ntwo')).toBe('two');
  });

  it('returns undefined for an output that says nothing', () => {
    expect(pickFailureLine('')).toBeUndefined();
    expect(pickFailureLine('Exit code: 1\nWall time: 0 seconds\nOutput:\n')).toBeUndefined();
    expect(pickFailureLine('TAP version 13\n1..0\n# duration_ms 0.5')).toBeUndefined();
  });

  it('keeps a whole line, clipped at a word only past the maximum', () => {
    const long = `Error: ${'word '.repeat(200)}`;
    const line = pickFailureLine(long) as string;
    expect(line.length).toBeLessThanOrEqual(FAILURE_LINE_MAX_CHARS);
    expect(line.startsWith('Error: word word')).toBe(true);
    expect(line.endsWith('…')).toBe(true);
  });
});
