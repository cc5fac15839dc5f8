import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentSession, createGeminiParser, readGeminiSession, type SessionToolCall } from '../../src/sessions/index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-gemini-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const calls = (s: AgentSession): SessionToolCall[] => s.events.flatMap((e) => (e.type === 'tool' ? [e.call] : []));
const shellCall = {
  id: 'run_shell_command_1',
  name: 'run_shell_command',
  args: { command: 'npm test' },
  status: 'success',
  result: [
    {
      functionResponse: {
        id: 'run_shell_command_1',
        name: 'run_shell_command',
        response: {
          output:
            'Command: npm test\nDirectory: (root)\nOutput: not ok 1 - adds\nError: (none)\nExit Code: 1\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 7',
        },
      },
    },
  ],
};

describe('the Gemini CLI reader', () => {
  it('streams a chat recording document: header, prompts without the set-up message, calls with exit codes', async () => {
    const file = path.join(dir, 'session-1.json');
    const doc = {
      sessionId: 'g-1',
      projectHash: 'abc',
      startTime: '2026-02-27T01:51:03.201Z',
      lastUpdated: '2026-02-27T02:00:00.000Z',
      summary: 'Fix the adder',
      messages: [
        { id: 'm0', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.</session_context>' }] },
        { id: 'm1', type: 'user', content: [{ text: 'fix @src/a.js\n--- Content from referenced files ---\nContent from @src/a.js:\nx' }] },
        { id: 'm2', type: 'gemini', content: '', model: 'gemini-2.5-pro', toolCalls: [shellCall] },
        { id: 'm3', type: 'info', content: 'Request cancelled.' },
      ],
    };
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const s = (await readGeminiSession(file)).session;
    expect(s).toMatchObject({
      client: 'gemini',
      id: 'g-1',
      model: 'gemini-2.5-pro',
      title: 'Fix the adder',
      ending: 'interrupted',
      skipped: 0,
    });
    expect(s.startedAt).toBe(Date.parse('2026-02-27T01:51:03.201Z'));
    expect(s.events[0]).toEqual({ type: 'user', text: 'fix @src/a.js' });
    expect(calls(s)[0]).toMatchObject({ name: 'run_shell_command', failed: true, exitCode: 1, output: 'not ok 1 - adds' });
  });

  it('reads the 0.5x JSONL layout: a message written again under its id adds only its calls', async () => {
    const file = path.join(dir, 'session-2.jsonl');
    const lines = [
      {
        sessionId: 'g-2',
        projectHash: 'abc',
        startTime: '2026-11-28T04:35:30.960Z',
        lastUpdated: '2026-11-28T04:35:30.960Z',
        kind: 'main',
      },
      { $set: { messages: [{ id: 'u1', type: 'user', content: [{ text: 'run the tests' }] }] } },
      { id: 'g1', type: 'gemini', content: '', model: 'gemini-3.8-flash' },
      { id: 'g1', type: 'gemini', content: '', model: 'gemini-3.8-flash', toolCalls: [shellCall] },
      {
        id: 'u2',
        type: 'user',
        content: [{ functionResponse: { id: 'run_shell_command_1', name: 'run_shell_command', response: { output: 'x' } } }],
      },
      { $set: { lastUpdated: '2026-11-28T04:35:33.165Z' } },
      { id: 'g2', type: 'gemini', content: 'Tests fail.' },
      { id: 'g2', type: 'gemini', content: 'Tests fail.' },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const s = (await readGeminiSession(file)).session;
    expect(s.events.map((e) => e.type)).toEqual(['user', 'tool', 'assistant']);
    expect(s.endedAt).toBe(Date.parse('2026-11-28T04:35:33.165Z'));
    expect(s.skipped).toBe(0);
  });

  it('reads a /chat save checkpoint, matching responses to calls by name when they carry no id', () => {
    const parser = createGeminiParser('/checkpoint-x.json');
    parser.push({ role: 'user', parts: [{ text: 'This is the Gemini CLI. We are setting up the context for our chat.' }] });
    parser.push({ role: 'user', parts: [{ text: 'list files' }] });
    parser.push({ role: 'model', parts: [{ functionCall: { name: 'list_directory', args: { path: '.' } } }] });
    parser.push({ role: 'user', parts: [{ functionResponse: { name: 'list_directory', response: { error: 'no such dir' } } }] });
    const s = parser.finish();
    expect(s.id).toBe('checkpoint-x');
    expect(s.events[0]).toEqual({ type: 'user', text: 'list files' });
    expect(calls(s)[0]).toMatchObject({ name: 'list_directory', failed: true, output: 'no such dir' });
  });

  it('says an error message about quota ended the session with a usage limit', () => {
    const parser = createGeminiParser('/s.json');
    parser.push({ id: 'e', type: 'error', content: '[API Error: RESOURCE_EXHAUSTED Quota exceeded]' });
    expect(parser.finish()).toMatchObject({ ending: 'usage_limit', endingMessage: '[API Error: RESOURCE_EXHAUSTED Quota exceeded]' });
  });
});
