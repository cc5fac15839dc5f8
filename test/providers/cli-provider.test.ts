import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider, createProviders, MAX_ARGV_PROMPT_BYTES, parseGeminiOutput } from '../../src/providers/index.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/bin');
const NOW = Date.parse('2026-11-22T12:00:00Z');

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), 'baton-cli-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('agent CLI providers', () => {
  it('runs gemini headless with json output, trust, model and configured extra args', async () => {
    const argsFile = path.join(cwd, 'gemini-args.txt');
    const gem = createProvider('gem', {
      type: 'gemini',
      binary: path.join(BIN, 'fake-gemini.sh'),
      args: ['--extra-flag'],
      model: 'gemini-2.5-pro',
      env: { FAKE_ARGS_FILE: argsFile },
    });
    const result = await gem.run({ prompt: 'Build it', cwd, timeoutMs: 10_000 });
    const argv = (await readFile(argsFile, 'utf8')).trim().split('\n');
    expect(argv).toEqual([
      '--prompt=Build it',
      '-o',
      'json',
      '--approval-mode',
      'yolo',
      '--skip-trust',
      '-m',
      'gemini-2.5-pro',
      '--extra-flag',
      'trust=true',
      'stdin_bytes=0',
    ]);
    expect(result.outcome.kind).toBe('ok');
    expect(result.response).toBe('done');
    // Requested pro, but the CLI reports flash ran: the result keeps what actually ran.
    expect(result.model).toBe('gemini-2.5-flash');
    expect(result.usage).toEqual({ input: 100, output: 7, total: 107 });
  });

  it('sends a prompt too big for one argument on stdin', async () => {
    const argsFile = path.join(cwd, 'gemini-big-args.txt');
    const gem = createProvider('gem', { type: 'gemini', binary: path.join(BIN, 'fake-gemini.sh'), env: { FAKE_ARGS_FILE: argsFile } });
    const prompt = 'p'.repeat(MAX_ARGV_PROMPT_BYTES + 1);
    const result = await gem.run({ prompt, cwd, timeoutMs: 10_000 });
    expect(result.outcome.kind).toBe('ok');
    const argv = (await readFile(argsFile, 'utf8')).trim().split('\n');
    // No --prompt at all: gemini runs headless on a piped stdin, and -p text would be appended.
    expect(argv[0]).toBe('-o');
    expect(argv.some((a) => a === '-p' || a.startsWith('--prompt'))).toBe(false);
    expect(argv).toContain(`stdin_bytes=${MAX_ARGV_PROMPT_BYTES + 1}`);
  });

  it('trusts claude’s is_error over its exit code 0 and reads the reset time', async () => {
    const claude = createProvider('claude', { type: 'claude', binary: path.join(BIN, 'fake-claude-limit.sh') }, { now: () => NOW });
    const result = await claude.run({ prompt: 'x', cwd, timeoutMs: 10_000 });
    expect(result.exitCode).toBe(0);
    expect(result.outcome.kind).toBe('quota_exhausted');
    expect(result.outcome.resetAt).toBe(NOW + 2 * 3_600_000);
  });

  it('records the model gemini ran in its main role, not its router’s lighter model', () => {
    // gemini 0.61's stats split by role: each turn's router check runs flash-lite as utility_router.
    const stat = (requests: number, role: string) => ({
      api: { totalRequests: requests },
      tokens: { prompt: 10, candidates: 1, total: 11 },
      roles: { [role]: { totalRequests: requests } },
    });
    const stdout = JSON.stringify({
      response: 'done',
      stats: { models: { 'gemini-3.5-flash-lite': stat(3, 'utility_router'), 'gemini-3.8-flash': stat(2, 'main') } },
    });
    expect(parseGeminiOutput(stdout, '').model).toBe('gemini-3.8-flash');
  });

  it('reports a missing CLI binary as config_error naming it', async () => {
    const codex = createProvider('codex', { type: 'codex', binary: 'baton-no-such-codex-binary' });
    const result = await codex.run({ prompt: 'x', cwd, timeoutMs: 10_000 });
    expect(result.outcome.kind).toBe('config_error');
    expect(result.outcome.reason).toContain('"baton-no-such-codex-binary" not found');
  });

  it('builds every provider of a config in priority order, built-ins by default', () => {
    const providers = createProviders({
      priority: ['fast', 'gemini'],
      providers: { fast: { type: 'command', command: ['true'] }, helper: { type: 'claude' } },
    });
    expect(Object.keys(providers)).toEqual(['fast', 'gemini', 'helper']);
    expect(providers.fast!.type).toBe('command');
    expect(providers.gemini!.type).toBe('gemini');
    expect(providers.helper!.name).toBe('helper');
  });

  it('rejects a priority name that names no provider', () => {
    expect(() => createProviders({ priority: ['nobody'], providers: {} })).toThrow(/"nobody"/);
  });
});
