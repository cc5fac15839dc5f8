/** The sessions benchmark's replay: a session fed the way a user of its client's API feeds it. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  readSessionReplays,
  runFactBench,
  sessionReplay,
  sessionTurns,
  SHARED_SESSIONS_DIR,
  toAnthropicSession,
  toOpenAISession,
} from '../../src/bench/index.js';
import type { AgentSession, SessionToolCall } from '../../src/sessions/index.js';

const call = (id: string, name: string, args: unknown, output: string, extra: Partial<SessionToolCall> = {}): SessionToolCall => ({
  id,
  name,
  args,
  kind: 'other',
  paths: [],
  output,
  failed: false,
  ...extra,
});

const session = (client: AgentSession['client']): AgentSession => ({
  client,
  id: `s-${client}`,
  source: 'x.jsonl',
  ending: 'normal',
  subagents: [],
  skipped: 0,
  events: [
    { type: 'user', text: 'Fix the failing upload test.' },
    { type: 'assistant', text: 'Running the tests first.' },
    { type: 'tool', call: call('a', 'Bash', { command: 'pytest -q' }, 'E   assert 200 == 400\n1 failed', { failed: true, exitCode: 1 }) },
    { type: 'tool', call: call('b', 'Read', { file_path: 'api/routes.py' }, 'def upload(): ...') },
    { type: 'assistant', text: 'Fixed.' },
  ],
});

describe('sessionTurns', () => {
  it('makes a reply and the call after it one response, each further call its own, and counts the events before each', () => {
    const turns = sessionTurns(session('claude'));
    expect(turns.map((t) => (t.kind === 'user' ? 'user' : `response:${t.calls.length}`))).toEqual([
      'user',
      'response:1',
      'response:1',
      'response:0',
    ]);
    expect(turns.map((t) => t.eventsBefore)).toEqual([0, 1, 3, 4]);
  });
});

describe('session messages', () => {
  it('writes Claude sessions as Anthropic messages with is_error, and Codex ones as OpenAI chat with the exit code in the text', () => {
    const anthropic = toAnthropicSession(sessionTurns(session('claude')));
    expect(anthropic.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(anthropic[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: 'E   assert 200 == 400\n1 failed', is_error: true },
    ]);
    const openai = toOpenAISession(sessionTurns(session('codex')), 'codex');
    expect(openai[2]).toEqual({ role: 'tool', tool_call_id: 'a', content: 'Exit code: 1\nOutput:\nE   assert 200 == 400\n1 failed' });
  });
});

describe('sessionReplay and runFactBench', () => {
  it('replays each model call against the facts of the events before it, Baton and recency within the budget', async () => {
    const replay = sessionReplay(session('claude'), 'You are a coding agent.');
    expect(replay.steps).toHaveLength(3);
    expect(replay.events[0]).toEqual({ kind: 'system', text: 'You are a coding agent.' });
    expect(replay.facts[2]?.newestError).toBe('E assert 200 == 400');
    const report = await runFactBench([replay], { budgets: [2048] });
    const scores = report.clients.claude?.budgets['2048'];
    expect(scores?.baton.builds).toBe(3);
    expect(scores?.baton.over_budget_rate).toBe(0);
    expect(scores?.baton.facts.task).toBe(1);
    expect(scores?.baton.system_lines_kept).toBe(1);
    expect(scores?.recency.facts.newest_error).toBe(1);
  });
});

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const shared = path.resolve(root, SHARED_SESSIONS_DIR);
const present = existsSync(shared);
if (!present) console.warn(`[skip] ${shared} is absent (as in a clean clone): the real-session replay test is skipped.`);

describe.skipIf(!present)('real public sessions (../shared/fixtures/agent-sessions)', () => {
  it('replays one session of each client with Baton never over budget', async () => {
    const files = [
      'claude-code/dphaener__dotfiles__5c6d01a5-3301-4d35-b15e-fd8aa772d271.jsonl',
      'gemini-cli/fabien-lessirard__dotfiles__session-2026-01-24T18-09-36e27e8d.json',
      'copilot-cli/Tokisaki7-Dev__HAWZX-AI__27d7ef99-f7c7-43eb-8599-cb469623c8f7.jsonl',
      'codex/EdofEngland__code_butler__rollout-2025-11-24T13-02-00-019ab73e-8c11-7ad2-b604-5987891db560.jsonl',
    ];
    const replays = await readSessionReplays(files.map((f) => path.join(shared, f)));
    expect(replays.map((r) => r.client).sort()).toEqual(['claude', 'codex', 'copilot', 'gemini']);
    const report = await runFactBench(replays, { budgets: [2048] });
    for (const [client, entry] of Object.entries(report.clients)) {
      expect(entry.budgets['2048']?.baton.over_budget_rate, client).toBe(0);
      expect(entry.budgets['2048']?.baton.facts.task, client).toBe(1);
    }
  }, 120_000);
});
