import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_TEMPLATE } from '../../src/cli/commands/init/config-template.js';
import { DEFAULT_PRIORITY, loadConfig } from '../../src/config/index.js';
import { isBatonError } from '../../src/errors/index.js';
import { FAKE } from '../redact/fake-secrets.js';

let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), 'baton-config-'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

async function writeConfig(content: unknown, rel = '.baton/baton.config.json'): Promise<string> {
  const file = path.join(cwd, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

async function loadError(options: Parameters<typeof loadConfig>[0]): Promise<Error & { code?: string; details?: Record<string, unknown> }> {
  try {
    await loadConfig(options);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected loadConfig to fail');
}

describe('loadConfig', () => {
  it('gives every default when the default file is missing', async () => {
    const config = await loadConfig({ cwd, env: {} });
    expect(config.file).toBeUndefined();
    expect(config.priority).toEqual([...DEFAULT_PRIORITY]);
    expect(config.providers.gemini).toEqual({ type: 'gemini' });
    expect(config.providers.claude).toEqual({ type: 'claude' });
    expect(config.preContext).toEqual({
      enabled: true,
      maxLines: 10,
      types: ['circuit_breaker', 'retry', 'helper'],
      maxFiles: 3,
      helperMaxAttempts: 2,
    });
    expect(config.recentHistoryWindow).toBe(5);
    expect(config.breaker).toMatchObject({
      coolDownMs: 60_000,
      quotaCoolDownMs: 3_600_000,
      authCoolDownMs: 86_400_000,
      failureThreshold: 3,
    });
    expect(config.timeouts).toEqual({ agentMs: 900_000, checkMs: 120_000 });
  });

  it('reads the template baton init writes, ignoring "//" comment keys', async () => {
    const file = await writeConfig(CONFIG_TEMPLATE);
    const config = await loadConfig({ cwd, env: {} });
    expect(config.file).toBe(file);
    expect(config.ledger).toBe('sqlite:.baton/agent.db');
    expect(config.priority).toEqual(['gemini', 'copilot', 'cursor', 'codex', 'claude']);
  });

  it('resolves the issue example: declared providers, relative commands from the config folder', async () => {
    const file = await writeConfig({
      providers: { fast: { type: 'command', command: ['./agents/fast.sh', '--quick'] }, gem: { type: 'gemini' } },
      priority: ['gem', 'fast', 'claude'],
    });
    const config = await loadConfig({ cwd, env: {} });
    expect(config.providers.fast).toEqual({ type: 'command', command: [path.join(path.dirname(file), 'agents/fast.sh'), '--quick'] });
    expect(config.providers.gem).toEqual({ type: 'gemini' });
    expect(config.providers.claude).toEqual({ type: 'claude' });
    expect(config.priority).toEqual(['gem', 'fast', 'claude']);
  });

  it('keeps bare command names for PATH lookup', async () => {
    await writeConfig({ providers: { n: { type: 'command', command: ['node', 'agent.js'] } }, priority: ['n'] });
    const config = await loadConfig({ cwd, env: {} });
    expect(config.providers.n).toEqual({ type: 'command', command: ['node', 'agent.js'] });
  });

  it('lets seed 000 environment variables override the file', async () => {
    await writeConfig({ preContext: { enabled: true, maxLines: 8 } });
    const config = await loadConfig({
      cwd,
      env: {
        ENABLE_PRE_CONTEXT_INJECTION: 'false',
        PRE_CONTEXT_MAX_LINES: '6',
        PRE_CONTEXT_TYPES: 'retry, helper',
        HELPER_CONTEXT_MAX_ATTEMPTS: '4',
        PRE_CONTEXT_MAX_FILES: '2',
      },
    });
    expect(config.preContext).toEqual({ enabled: false, maxLines: 6, types: ['retry', 'helper'], maxFiles: 2, helperMaxAttempts: 4 });
  });

  it('names the variable when an environment override is invalid', async () => {
    const error = await loadError({ cwd, env: { PRE_CONTEXT_TYPES: 'retry,bogus' } });
    expect(isBatonError(error, 'CONFIG_INVALID')).toBe(true);
    expect(error.message).toContain('PRE_CONTEXT_TYPES');
    expect(error.message).toContain('bogus');
  });

  it('reads an explicit --config file and fails when it is missing', async () => {
    await writeConfig({ priority: ['codex'] }, 'custom/baton.json');
    const config = await loadConfig({ cwd, file: 'custom/baton.json', env: {} });
    expect(config.priority).toEqual(['codex']);
    const error = await loadError({ cwd, file: 'nope.json', env: {} });
    expect(isBatonError(error, 'CONFIG_INVALID')).toBe(true);
    expect(error.message).toContain(path.join(cwd, 'nope.json'));
  });

  it('names the file and each bad field path', async () => {
    const file = await writeConfig({
      providers: { fast: { type: 'command', command: [] }, web: { type: 'http', baseURL: 'not a url' } },
      recentHistoryWindow: -1,
      priorty: ['x'],
    });
    const error = await loadError({ cwd, env: {} });
    expect(isBatonError(error, 'CONFIG_INVALID')).toBe(true);
    expect(error.message).toContain(file);
    const fields = ((error.details?.problems ?? []) as { field: string }[]).map((p) => p.field);
    expect(fields).toEqual(
      expect.arrayContaining(['providers.fast.command', 'providers.web.baseURL', 'providers.web.model', 'recentHistoryWindow']),
    );
    expect(error.message).toMatch(/priorty/);
  });

  it('names an unknown key with the spelling it expects, at every level', async () => {
    const file = await writeConfig({
      priorty: ['codex'],
      preContext: { max_lines: 5 },
      providers: { fast: { type: 'command', command: ['node'], timeout: 5 } },
    });
    const error = await loadError({ cwd, env: {} });
    expect(isBatonError(error, 'CONFIG_INVALID')).toBe(true);
    expect(error.message).toContain(`Config file ${file} is invalid:`);
    expect(error.message).toContain('unknown key "priorty" (did you mean "priority"?)');
    expect(error.message).toContain('preContext: unknown key "max_lines" (did you mean "maxLines"?)');
    expect(error.message).toContain('providers.fast: unknown key "timeout" (did you mean "timeoutMs"?)');
    expect(error.details?.file).toBe(file);
  });

  it('takes process.env itself as its environment (a CLI passes it as is)', async () => {
    await writeConfig({ priority: ['codex'] });
    const config = await loadConfig({ cwd, env: process.env });
    expect(config.priority).toEqual(['codex']);
    const error = await loadError({ cwd, env: { PATH: 1 } as never });
    expect(error.message).toContain('expected an environment: an object of strings (process.env)');
  });

  it('never echoes a secret: a provider env given as a string, headers, an apiKey of the wrong type', async () => {
    const env = `OPENAI_API_KEY=${FAKE.openai}`;
    await writeConfig({
      providers: {
        a: { type: 'command', command: ['node'], env },
        h: { type: 'http', model: 'm', baseURL: 'http://127.0.0.1:1/v1', headers: `Authorization: Bearer ${FAKE.bearerToken}` },
        k: { type: 'http', model: 'm', baseURL: 'http://127.0.0.1:1/v1', apiKey: { env: 1, value: FAKE.githubPat } },
      },
    });
    const error = await loadError({ cwd, env: process.env });
    const shown = JSON.stringify([error.message, error.details]);
    for (const secret of [FAKE.openai, FAKE.bearerToken, FAKE.githubPat]) expect(shown).not.toContain(secret);
    // Each problem still names the field, the type expected and the type found.
    expect(error.message).toContain('providers.a.env: expected an environment: an object of strings (process.env); got a string');
    expect(error.message).toContain('providers.h.headers: expected the HTTP headers: an object of strings; got a string');
    expect(error.details?.value).toBe('[REDACTED:env]');
  });

  it('says where a config file is not valid JSON without quoting it', async () => {
    const file = await writeConfig(`{\n  "ledger": "memory",\n  OPENAI_API_KEY=${FAKE.openai}\n}`);
    const error = await loadError({ cwd, env: process.env });
    expect(error.message).toBe(`Config file ${file} is not valid JSON: Expected double-quoted property name at line 3, column 3`);
    expect(JSON.stringify(error.details)).not.toContain('OPENAI');
  });

  it('names an unknown option of loadConfig itself', async () => {
    const error = await loadError({ cwd, configFile: 'x.json' } as never);
    expect(isBatonError(error, 'CONFIG_INVALID')).toBe(true);
    expect(error.message).toBe('loadConfig options: unknown key "configFile" (expected one of: file, env)');
  });

  it('requires a baseURL for an openai-compatible http provider', async () => {
    await writeConfig({ providers: { local: { type: 'http', model: 'llama3' } }, priority: ['local'] });
    const error = await loadError({ cwd, env: {} });
    expect(isBatonError(error, 'CONFIG_INVALID')).toBe(true);
    expect(error.message).toContain('providers.local.baseURL');
  });

  it('accepts an http provider with an env api key', async () => {
    await writeConfig({
      providers: { local: { type: 'http', baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3', apiKey: { env: 'LOCAL_KEY' } } },
      priority: ['local'],
    });
    const config = await loadConfig({ cwd, env: {} });
    expect(config.providers.local).toEqual({
      type: 'http',
      baseURL: 'http://127.0.0.1:11434/v1',
      model: 'llama3',
      apiKey: { env: 'LOCAL_KEY' },
    });
  });

  it('accepts an agent CLI’s permissions and rejects a mode that does not exist, naming the field', async () => {
    await writeConfig({ providers: { claude: { type: 'claude', permissions: 'edits', args: ['--allowedTools', 'Bash(cargo *)'] } } });
    expect((await loadConfig({ cwd, env: {} })).providers.claude).toMatchObject({ permissions: 'edits' });
    await writeConfig({ providers: { claude: { type: 'claude', permissions: 'yolo' } } });
    const error = await loadError({ cwd, env: {} });
    expect(isBatonError(error, 'CONFIG_INVALID')).toBe(true);
    expect(error.message).toContain('providers.claude.permissions');
  });

  it('rejects an unknown provider type naming the field', async () => {
    await writeConfig({ providers: { x: { type: 'gpt-cli' } } });
    const error = await loadError({ cwd, env: {} });
    expect(error.message).toContain('providers.x.type');
  });

  it('rejects a priority name that is neither declared nor built in', async () => {
    await writeConfig({ priority: ['gemini', 'mystery'] });
    const error = await loadError({ cwd, env: {} });
    expect(isBatonError(error, 'CONFIG_INVALID')).toBe(true);
    expect(error.message).toContain('priority.1');
    expect(error.message).toContain('"mystery"');
  });

  it('reports invalid JSON with the file name', async () => {
    const file = await writeConfig('{ "priority": [ }');
    const error = await loadError({ cwd, env: {} });
    expect(error.message).toContain(file);
    expect(error.message).toContain('not valid JSON');
  });

  it('adds the helper provider to the providers map', async () => {
    await writeConfig({ priority: ['gemini'], helper: 'claude', timeouts: { agentMs: 1000 } });
    const config = await loadConfig({ cwd, env: {} });
    expect(config.helper).toBe('claude');
    expect(Object.keys(config.providers).sort()).toEqual(['claude', 'gemini']);
    expect(config.timeouts).toEqual({ agentMs: 1000, checkMs: 120_000 });
  });
});
