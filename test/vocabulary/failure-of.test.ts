import { describe, expect, it } from 'vitest';
import { failureOf, findFailureLine } from '../../src/vocabulary/index.js';

describe('failureOf', () => {
  it("takes the client's flag first, then a non-zero exit code stated anywhere the clients state one", () => {
    expect(failureOf({ name: 'Bash', args: { command: 'npm test' }, output: 'Exit code 1\nnot ok 1 - adds', isError: true })).toEqual({
      failed: true,
      exitCode: 1,
      line: 'not ok 1 - adds',
    });
    expect(failureOf({ name: 'Read', args: {}, output: 'File does not exist.', isError: true })).toMatchObject({
      failed: true,
      line: 'File does not exist.',
    });
    expect(
      failureOf({ name: 'shell_command', args: { command: 'rg x' }, output: 'Exit code: 1\nWall time: 0 seconds\nOutput:\n' }),
    ).toEqual({
      failed: true,
      exitCode: 1,
    });
    expect(failureOf({ name: 'run_shell_command', args: { command: 'npm test' }, output: 'Output: Error: boom\nExit Code: 0' })).toEqual({
      failed: false,
      exitCode: 0,
    });
    expect(failureOf({ name: 'Bash', args: { command: 'x' }, output: 'TypeError: boom', isError: false })).toEqual({ failed: false });
  });

  it('without a flag or an exit code, counts a shell or edit output with an assertion or an error, never a read or a search', () => {
    const traceback = 'Traceback (most recent call last):\n  File "r.py", line 3\nZeroDivisionError: division by zero';
    expect(failureOf({ name: 'bash', args: { command: 'python r.py' }, output: traceback })).toEqual({
      failed: true,
      line: 'ZeroDivisionError: division by zero',
    });
    expect(
      failureOf({
        name: 'apply_patch',
        args: '*** Begin Patch\n*** Update File: a.py\n*** End Patch',
        output: 'error: Failed to find expected lines in a.py',
      }).failed,
    ).toBe(true);
    // What tools without a flag say when they refuse (Codex's patch check, Copilot's create and str_replace).
    const refusals = [
      ['apply_patch', 'apply_patch verification failed: Failed to find expected lines in /w/spec.md:'],
      ['create', 'Path already exists'],
      ['str_replace_editor', 'Invalid inputs: old_str is required for str_replace'],
    ] as const;
    for (const [name, output] of refusals)
      expect(failureOf({ name, args: { path: '/w/a.md' }, output })).toEqual({ failed: true, line: output });
    expect(failureOf({ name: 'bash', args: { command: 'cat app.py' }, output: 'raise ValueError: bad input' }).failed).toBe(false);
    expect(failureOf({ name: 'grep', args: { pattern: 'Error' }, output: 'a.py:3: TypeError: x' }).failed).toBe(false);
    expect(failureOf({ name: 'bash', args: { command: 'make' }, output: 'warning: unused variable\nbuilt 3 targets' }).failed).toBe(false);
  });

  it('ranks the line it picks', () => {
    expect(findFailureLine('E   assert 1 == 2')?.rank).toBe(0);
    expect(findFailureLine('fatal: not a git repository')?.rank).toBe(1);
    expect(findFailureLine('not ok 3 - x')?.rank).toBe(2);
    expect(findFailureLine('nothing to see\nhere')).toEqual({ line: 'here', rank: 5 });
  });
});
