import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/vocabulary/index.js';

describe('exitCodeOf', () => {
  it("reads each client's way of stating an exit code", () => {
    expect(exitCodeOf('Exit code 101\n   Compiling x')).toBe(101); // Claude Code Bash error
    expect(exitCodeOf('Exit code: 2\nWall time: 0 seconds\nOutput:\nls: cannot access')).toBe(2); // Codex shell_command
    expect(exitCodeOf('Chunk ID: e4f318\nWall time: 0.05 seconds\nProcess exited with code 0\nOutput:\n{}')).toBe(0); // Codex exec_command
    expect(exitCodeOf('{"output":"x\\n","metadata":{"exit_code":127,"duration_seconds":1.4}}')).toBe(127); // Codex shell
    expect(exitCodeOf('Command: git status\nOutput: clean\nError: (none)\nExit Code: 1\nSignal: (none)')).toBe(1); // Gemini
    expect(exitCodeOf('Python 3.11.9\n<exited with exit code 0>')).toBe(0); // Copilot CLI
    expect(exitCodeOf('failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 2, stdout: ')).toBe(2);
    expect(exitCodeOf('...\n[The command completed with exit code 1.]')).toBe(1); // OpenHands
  });

  it('prefers metadata, and never takes an exit code printed in the middle of an output', () => {
    expect(exitCodeOf('Exit code 1', { exit_code: 3 })).toBe(3);
    const middle = ['line', 'line', 'line', 'line', 'line', 'line', 'Exit code 1', ...Array(10).fill('more')].join('\n');
    expect(exitCodeOf(middle)).toBeUndefined();
    expect(exitCodeOf('all good')).toBeUndefined();
  });
});
