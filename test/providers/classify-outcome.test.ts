import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENT_CLI_SPECS, classifyOutcome, parseCommandOutput, stripEchoedPrompt } from '../../src/providers/index.js';
import { CappedOutput } from '../../src/spawner/index.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/agents');

const NOW = Date.parse('2026-11-22T12:00:00Z');
const base = { provider: 'x', stdout: '', stderr: '', timedOut: false, now: NOW };

describe('classifyOutcome', () => {
  it('puts Baton’s own timeout above whatever the agent printed or exited with', () => {
    // gemini exits 0 when it receives SIGTERM (recorded): the timeout must still win.
    expect(classifyOutcome({ ...base, exitCode: 0, timedOut: true, stderr: 'rate limit' }).kind).toBe('timeout');
  });

  it('keeps a clean exit ok even when the answer discusses rate limits and quotas', () => {
    const stdout =
      'I added a rate limit middleware.\nIt returns 429 when the quota is used up.\n\nAll tests pass.\nDone.\nSummary written.';
    expect(classifyOutcome({ ...base, exitCode: 0, stdout }).kind).toBe('ok');
  });

  it('still reads a failure phrase on stderr after a clean exit', () => {
    expect(classifyOutcome({ ...base, exitCode: 0, stderr: 'Error: 402 You have no quota' }).kind).toBe('quota_exhausted');
  });

  it('falls back to documented exit codes when no phrase matches', () => {
    expect(classifyOutcome({ ...base, exitCode: 53, exitCodes: { 53: 'agent_error' } }).kind).toBe('agent_error');
    expect(classifyOutcome({ ...base, exitCode: 173, exitCodes: { 173: 'rate_limited' } }).kind).toBe('rate_limited');
    expect(classifyOutcome({ ...base, exitCode: 127 }).kind).toBe('config_error');
  });

  it('lets a structured error outrank a zero exit code', () => {
    const parsed = { structured: true, isError: true, errorText: 'the tests keep failing' };
    expect(classifyOutcome({ ...base, exitCode: 0, parsed })).toEqual({ kind: 'agent_error', reason: 'the tests keep failing' });
  });

  it('reports the abort signal as interrupted', () => {
    expect(classifyOutcome({ ...base, aborted: true }).kind).toBe('interrupted');
  });
});

describe('classifyOutcome reasons', () => {
  it('names codex’s broken config, not the warning it printed first', () => {
    // Recorded from codex 0.171 with a config.toml holding the same table twice.
    const stderr = [
      'WARNING: proceeding, even though we could not create PATH aliases: Refusing to create helper binaries under temporary dir "/tmp"',
      'Error loading config.toml:',
      '/home/me/.codex/config.toml:17:11: duplicate key',
    ].join('\n');
    expect(classifyOutcome({ ...base, provider: 'codex', exitCode: 1, stderr })).toEqual({
      kind: 'config_error',
      reason: 'Error loading config.toml: /home/me/.codex/config.toml:17:11: duplicate key',
    });
  });

  it('skips warning lines when it falls back to stderr for the reason', () => {
    const stderr = '(node:42) ExperimentalWarning: something\nWARNING: noise\nthe agent gave up';
    expect(classifyOutcome({ ...base, exitCode: 1, stderr })).toEqual({ kind: 'agent_error', reason: 'the agent gave up' });
  });
});

describe('classifyOutcome never reads Baton’s own prompt', () => {
  const SWITCH =
    '--- PROVIDER SWITCH CONTEXT ---\nPrevious provider (limited) failed: rate_limited\nValidation error: "429 Too Many Requests"\n--- END CONTEXT ---\n\n## Task ID\ngreet\n';

  it('classifies claude’s real "unknown option \'--- PROVIDER SWITCH…rate_limited…\'" as config_error naming its message, not rate_limited', () => {
    // Recorded from claude 2.1.197 with the argv Baton used before issue 26 (`-p PROMPT`).
    const fixture = JSON.parse(readFileSync(path.join(FIXTURES, 'claude/unknown-option-echoes-prompt.json'), 'utf8')) as {
      stdout: string;
      stderr: string;
      exitCode: number;
      prompt: string;
    };
    expect(fixture.stderr).toContain('failed: rate_limited');
    const outcome = classifyOutcome({
      ...base,
      provider: 'claude',
      stdout: fixture.stdout,
      stderr: fixture.stderr,
      exitCode: fixture.exitCode,
      parsed: AGENT_CLI_SPECS.claude.parseOutput(fixture.stdout, fixture.stderr),
      prompt: fixture.prompt,
    });
    expect(outcome).toEqual({ kind: 'config_error', reason: "claude rejected its command line: error: unknown option '<prompt>'" });
  });

  it('ignores failure words that appear only in the echoed prompt', () => {
    const stderr = `Crashed while reading:\n${SWITCH}\nSegmentation fault in the agent`;
    const outcome = classifyOutcome({ ...base, exitCode: 1, stderr, prompt: SWITCH });
    expect(outcome).toEqual({ kind: 'agent_error', reason: 'Crashed while reading:' });
    // Without the prompt to strip, the echo decides (the bug issue 26 reported).
    expect(classifyOutcome({ ...base, exitCode: 1, stderr }).kind).toBe('rate_limited');
  });

  it('still reads the CLI’s own failure after the echo', () => {
    const stderr = `> ${JSON.stringify(SWITCH).slice(1, -1)}\nError: 402 You have no quota`;
    expect(classifyOutcome({ ...base, exitCode: 1, stderr, prompt: SWITCH }).kind).toBe('quota_exhausted');
  });

  it('takes out the whole prompt, its JSON-escaped form, and lines that are lines of it', () => {
    const prompt = 'line one of the prompt\nsecond line: rate_limited';
    const text = `a ${prompt} b\n${JSON.stringify(prompt)}\n  second line: rate_limited  \nreal error`;
    expect(stripEchoedPrompt(text, prompt)).toBe('a <prompt> b\n"<prompt>"\nreal error');
  });
});

describe('parseCommandOutput', () => {
  it('reads only the last line as the outcome report and keeps the rest as the response', () => {
    const parsed = parseCommandOutput('{"outcome":"rate_limited"}\nwork done\n{"outcome":"ok","model":"m"}\n');
    expect(parsed).toMatchObject({ structured: true, kind: 'ok', model: 'm', response: '{"outcome":"rate_limited"}\nwork done' });
  });

  it('ignores a last line that is JSON but not an outcome report', () => {
    expect(parseCommandOutput('{"files":3}')).toEqual({ structured: false, response: '{"files":3}' });
    expect(parseCommandOutput('{"outcome":"sunny"}').structured).toBe(false);
  });
});

describe('CappedOutput', () => {
  it('keeps everything under the cap and head plus tail over it', () => {
    const small = new CappedOutput(10);
    small.push(Buffer.from('abc'));
    expect(small.text()).toBe('abc');
    expect(small.truncated).toBe(false);

    const big = new CappedOutput(10);
    for (const chunk of ['012', '345', '678', '9ab', 'cde', 'fgh']) big.push(Buffer.from(chunk));
    expect(big.truncated).toBe(true);
    expect(big.totalBytes).toBe(18);
    expect(big.text()).toBe('01234\n… [8 bytes of output omitted] …\ndefgh');
  });
});
