/**
 * sessionRecordData keeps a prompt in the user's own words: Gemini CLI's transcript holds Baton's
 * SessionStart context in front of the prompt (`<hook_context>…</hook_context>`), and an import of
 * that transcript must not make Baton's own context the session's "Last request" (it did, and the
 * next session's context then quoted Baton's context back to it).
 */
import { describe, expect, it } from 'vitest';
import { sessionRecordData } from '../../src/sessions/index.js';
import type { AgentSession } from '../../src/sessions/types.js';

const HOOKED = '<hook_context># Baton context for this workspace\nA new session.\n</hook_context>\n';

function geminiSession(prompts: string[]): AgentSession {
  return {
    client: 'gemini',
    id: 'g1',
    source: '/tmp/chat.json',
    cwd: '/w',
    startedAt: 1_000,
    endedAt: 2_000,
    ending: 'normal',
    events: prompts.map((text, i) => ({ type: 'user' as const, text, at: 1_000 + i })),
    subagents: [],
    skipped: 0,
  };
}

describe('sessionRecordData: prompts in the user’s own words', () => {
  it('drops Baton’s hook context in front of a Gemini prompt from the task and the last request', () => {
    const data = sessionRecordData(geminiSession([`${HOOKED}Make hello.txt.`, 'Carry on.', `${HOOKED}Still there?`]), '/w', 3_000);
    expect(data.lastPrompt).toBe('Still there?');
    expect(data.transcript?.task).toBe('Make hello.txt.');
    expect(data.turns).toBe(3);
  });

  it('counts a prompt that was only Baton’s context as a turn without making it the last request', () => {
    const data = sessionRecordData(geminiSession(['Make hello.txt.', HOOKED]), '/w', 3_000);
    expect(data.lastPrompt).toBe('Make hello.txt.');
    expect(data.turns).toBe(2);
  });
});
