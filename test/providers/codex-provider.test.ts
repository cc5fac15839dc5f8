import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/index.js';

const THREAD = '01a218a1-f971-7440-9731-b98c0f13eaeb';
const STARTED = JSON.stringify({ type: 'thread.started', thread_id: THREAD });
const RECONNECT = JSON.stringify({
  type: 'error',
  message: 'Reconnecting... waiting for network (Connection failed: error sending request)',
});

let dir: string;
let codexHome: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'baton-codex-'));
  codexHome = path.join(dir, 'codex-home');
  await mkdir(codexHome);
  await writeFile(
    path.join(codexHome, 'config.toml'),
    [
      'model = "configured-model"',
      'model_provider = "local" # the box under the desk',
      '',
      '[model_providers.local]',
      'name = "Local"',
      "base_url = 'http://127.0.0.1:9/v1'",
      'wire_api = "responses"',
      '',
      '[model_providers.other]',
      'base_url = "http://elsewhere/v1"',
    ].join('\n'),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A stand-in codex printing `lines` as its JSONL events, then (optionally) hanging like codex does. */
async function standIn(name: string, lines: string[], hang = false): Promise<string> {
  const file = path.join(dir, name);
  const body = lines.map((l) => `printf '%s\\n' '${l}'`).join('\n');
  await writeFile(file, `#!/bin/sh\n${body}\n${hang ? 'exec sleep 600' : 'exit 0'}\n`);
  await chmod(file, 0o755);
  return file;
}

describe('codex provider (stand-in binary printing codex 0.171’s events)', () => {
  it('records the model from the session file, since codex’s events name none', async () => {
    const day = path.join(codexHome, 'sessions', '2026', '11', '26');
    await mkdir(day, { recursive: true });
    const turn = (model: string) => JSON.stringify({ type: 'turn_context', payload: { turn_id: 't', model, cwd: dir } });
    await writeFile(path.join(day, `rollout-2026-11-26T16-13-18-${THREAD}.jsonl`), `${turn('gpt-5.5')}\n${turn('gpt-5.5-mini')}\n`);
    const ok = JSON.stringify({ type: 'item.completed', item: { type: 'agent_message', text: 'done' } });
    const usage = JSON.stringify({ type: 'turn.completed', usage: { input_tokens: 10, output_tokens: 2 } });
    const binary = await standIn('codex-ok', [STARTED, ok, usage]);
    const codex = createProvider('codex', { type: 'codex', binary, env: { CODEX_HOME: codexHome } });
    const result = await codex.run({ prompt: 'x', cwd: dir, timeoutMs: 20_000 });
    expect(result.outcome.kind).toBe('ok');
    // The last turn's model: codex switched within the session.
    expect(result.model).toBe('gpt-5.5-mini');
  });

  it('falls back to -m in args, then the config’s model, when there is no session file', async () => {
    const binary = await standIn('codex-no-session', [JSON.stringify({ type: 'thread.started', thread_id: 'no-such-thread' })]);
    const configured = createProvider('codex', { type: 'codex', binary, env: { CODEX_HOME: codexHome } });
    expect((await configured.run({ prompt: 'x', cwd: dir, timeoutMs: 20_000 })).model).toBe('configured-model');
    const flagged = createProvider('codex', { type: 'codex', binary, env: { CODEX_HOME: codexHome }, args: ['-m', 'from-args'] });
    expect((await flagged.run({ prompt: 'x', cwd: dir, timeoutMs: 20_000 })).model).toBe('from-args');
  });

  it('keeps a run that reconnected once and then completed ok', async () => {
    const done = JSON.stringify({ type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } });
    const binary = await standIn('codex-blip', [STARTED, RECONNECT, done]);
    const codex = createProvider('codex', { type: 'codex', binary, env: { CODEX_HOME: codexHome } });
    expect((await codex.run({ prompt: 'x', cwd: dir, timeoutMs: 20_000 })).outcome.kind).toBe('ok');
  });

  it('stops codex waiting for an unreachable endpoint and names the endpoint, long before the time limit', async () => {
    const binary = await standIn('codex-unreachable', [STARTED, RECONNECT, RECONNECT, RECONNECT, RECONNECT], true);
    const codex = createProvider('codex', { type: 'codex', binary, env: { CODEX_HOME: codexHome } }, { killGraceMs: 1_000 });
    const result = await codex.run({ prompt: 'x', cwd: dir, timeoutMs: 600_000 });
    expect(result.outcome).toEqual({
      kind: 'overloaded',
      reason:
        'codex: codex could not reach its model endpoint http://127.0.0.1:9/v1 (model provider "local"): Connection failed: error sending request; stopped after 4 reconnect attempts',
    });
    expect(result.signal).toBe('SIGTERM');
  });

  it('stops after BATON_CODEX_RECONNECTS notices when it is set (read at each run), not the default four', async () => {
    const binary = await standIn('codex-unreachable-two', [STARTED, RECONNECT, RECONNECT], true);
    const codex = createProvider('codex', { type: 'codex', binary, env: { CODEX_HOME: codexHome } }, { killGraceMs: 1_000 });
    const saved = process.env.BATON_CODEX_RECONNECTS;
    process.env.BATON_CODEX_RECONNECTS = '2';
    try {
      const result = await codex.run({ prompt: 'x', cwd: dir, timeoutMs: 600_000 });
      expect(result.outcome.reason).toMatch(/stopped after 2 reconnect attempts$/);
      expect(result.signal).toBe('SIGTERM');
    } finally {
      if (saved === undefined) delete process.env.BATON_CODEX_RECONNECTS;
      else process.env.BATON_CODEX_RECONNECTS = saved;
    }
  });

  it('names the provider a -c override picks', async () => {
    const binary = await standIn('codex-unreachable-other', [STARTED, RECONNECT, RECONNECT, RECONNECT, RECONNECT], true);
    const codex = createProvider(
      'codex',
      { type: 'codex', binary, env: { CODEX_HOME: codexHome }, args: ['-c', 'model_provider="other"'] },
      { killGraceMs: 1_000 },
    );
    const result = await codex.run({ prompt: 'x', cwd: dir, timeoutMs: 600_000 });
    expect(result.outcome.reason).toContain('http://elsewhere/v1 (model provider "other")');
  });
});

describe('connection failures name the model endpoint', () => {
  it('adds the endpoint a claude run could not reach to its reason', async () => {
    const result = JSON.stringify({
      type: 'result',
      subtype: 'success',
      is_error: true,
      result: 'API Error: Unable to connect to API (ConnectionRefused)',
    });
    const binary = await standIn('claude-unreachable', [result]);
    const claude = createProvider('claude', { type: 'claude', binary, env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' } });
    expect((await claude.run({ prompt: 'x', cwd: dir, timeoutMs: 20_000 })).outcome).toEqual({
      kind: 'overloaded',
      reason: 'API Error: Unable to connect to API (ConnectionRefused) (model endpoint http://127.0.0.1:9)',
    });
  });
});
