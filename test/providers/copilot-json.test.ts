import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCopilotOutput } from '../../src/providers/agents/copilot.js';
import { classifyOutcome, createProvider } from '../../src/providers/index.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/agents/copilot');
const NOW = Date.parse('2026-11-22T12:00:00Z');

interface Fixture {
  source: string;
  version?: string;
  argv: string[];
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

function fixture(name: string): Fixture {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Fixture;
}

function classify(f: Fixture) {
  const parsed = parseCopilotOutput(f.stdout, f.stderr);
  const outcome = classifyOutcome({
    provider: 'copilot',
    stdout: f.stdout,
    stderr: f.stderr,
    parsed,
    timedOut: false,
    now: NOW,
    ...(f.exitCode === null ? {} : { exitCode: f.exitCode }),
  });
  return { parsed, outcome };
}

describe('copilot --output-format json', () => {
  it('reads answer and model from a recorded json run of the real CLI', () => {
    const f = fixture('json-ok');
    expect(f.source).toBe('recorded');
    expect(f.argv).toContain('--output-format');
    const { parsed, outcome } = classify(f);
    expect(parsed).toMatchObject({ structured: true, response: 'Created hello.txt.', model: 'gpt-4.1' });
    expect(parsed.isError).toBeUndefined();
    expect(outcome.kind).toBe('ok');
  });

  it('takes 402 and 429 from session.error, with the wait the message names', () => {
    const quota = classify(fixture('json-no-quota'));
    expect(quota.parsed).toMatchObject({ isError: true, kind: 'quota_exhausted', errorText: '402 You have no quota' });
    expect(quota.outcome.reason).toBe('402 You have no quota');
    const limited = classify(fixture('json-rate-limited'));
    expect(limited.outcome).toMatchObject({ kind: 'rate_limited', resetAt: NOW + 42_000 });
  });

  it('sums input and output tokens of assistant.usage and keeps the last non-empty answer', () => {
    const { parsed } = classify(fixture('json-ok-usage'));
    expect(parsed.usage).toEqual({ input: 18_300, output: 135, total: 18_435 });
    expect(parsed.response).toBe('Created hello.txt containing hi.');
  });

  it('falls back to the messages’ outputTokens alone when no assistant.usage is printed', () => {
    const stdout = [
      { type: 'assistant.message', data: { messageId: 'a', content: 'one', outputTokens: 7 } },
      { type: 'assistant.message', data: { messageId: 'b', content: 'two', outputTokens: 5 } },
      { type: 'result', exitCode: 0 },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    expect(parseCopilotOutput(stdout, '').usage).toEqual({ output: 12 });
  });

  it('does not let the echoed prompt decide the kind of a session error', () => {
    const { outcome } = classify(fixture('json-error'));
    expect(outcome.kind).toBe('agent_error');
    expect(outcome.reason).toBe('Execution failed: the model returned an empty response');
  });

  it('maps errorType quota to quota_exhausted', () => {
    expect(classify(fixture('json-quota-exceeded')).outcome.kind).toBe('quota_exhausted');
  });

  it('records a silent model switch: a model the events name wins over the notice', () => {
    const noticeOnly = classify(fixture('json-ok-model-switched'));
    expect(noticeOnly.outcome.kind).toBe('ok');
    expect(noticeOnly.parsed.model).toBe('GPT-4.1');
    const f = fixture('json-ok-model-switched');
    const named = f.stdout.replace('"content":"Created hello.txt."', '"model":"gpt-4.1","content":"Created hello.txt."');
    expect(named).not.toBe(f.stdout);
    expect(parseCopilotOutput(named, f.stderr).model).toBe('gpt-4.1');
  });

  it('still parses plain text output (older copilot, or --output-format text)', () => {
    const switched = classify(fixture('ok-model-switched'));
    expect(switched.parsed).toEqual({ structured: false, response: 'Created hello.txt.', model: 'GPT-4.1' });
    expect(switched.outcome.kind).toBe('ok');
    const noAuth = classify(fixture('json-not-authenticated'));
    expect(noAuth.parsed.structured).toBe(false);
    expect(noAuth.outcome.kind).toBe('auth_failed');
  });
});

describe('copilot provider in a real child process', () => {
  let dir: string;
  let binary: string;
  const argsFile = (): string => path.join(dir, 'argv.json');

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'baton-copilot-'));
    binary = path.join(dir, 'copilot');
    // Like copilot 1.0.102 (checked by hand): the last --output-format wins.
    const replay = fixture('json-ok').stdout;
    await writeFile(
      binary,
      `#!/usr/bin/env node
const fs = require('node:fs');
const argv = process.argv.slice(2);
fs.writeFileSync(process.env.FAKE_ARGS_FILE, JSON.stringify(argv));
const format = argv.lastIndexOf('--output-format') === -1 ? 'text' : argv[argv.lastIndexOf('--output-format') + 1];
process.stdout.write(format === 'json' ? ${JSON.stringify(replay)} : 'Created hello.txt.\\n');
`,
    );
    await chmod(binary, 0o755);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('asks for json by default and reads the events', async () => {
    const provider = createProvider('copilot', { type: 'copilot', binary, model: 'gpt-4.1', env: { FAKE_ARGS_FILE: argsFile() } });
    const result = await provider.run({ prompt: 'Create hello.txt containing hi', cwd: dir, timeoutMs: 10_000 });
    const argv = JSON.parse(await readFile(argsFile(), 'utf8')) as string[];
    expect(argv).toEqual([
      '--prompt=Create hello.txt containing hi',
      '-s',
      '--allow-all-tools',
      '--output-format',
      'json',
      '--model',
      'gpt-4.1',
    ]);
    expect(result.outcome.kind).toBe('ok');
    expect(result.response).toBe('Created hello.txt.');
    expect(result.model).toBe('gpt-4.1');
  });

  it('falls back to plain text when the config appends --output-format text', async () => {
    const provider = createProvider('copilot', {
      type: 'copilot',
      binary,
      args: ['--output-format', 'text'],
      env: { FAKE_ARGS_FILE: argsFile() },
    });
    const result = await provider.run({ prompt: 'x', cwd: dir, timeoutMs: 10_000 });
    const argv = JSON.parse(await readFile(argsFile(), 'utf8')) as string[];
    expect(argv.slice(-2)).toEqual(['--output-format', 'text']);
    expect(result.outcome.kind).toBe('ok');
    expect(result.response).toBe('Created hello.txt.');
    expect(result.model).toBeUndefined();
  });
});
