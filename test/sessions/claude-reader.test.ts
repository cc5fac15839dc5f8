import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentSession, createClaudeParser, readClaudeSession, type SessionToolCall } from '../../src/sessions/index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-claude-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { sessionId: 's-1', cwd: '/repo', version: '2.1.197', isSidechain: false };
const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
  ...base,
  type: 'user',
  message: { role: 'user', content },
  ...extra,
});
const assistant = (content: unknown[], extra: Record<string, unknown> = {}) => ({
  ...base,
  type: 'assistant',
  message: { role: 'assistant', model: 'claude-sonnet-4-6', content },
  ...extra,
});
const toolUse = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });
const toolResult = (id: string, content: unknown, isError = false) => ({
  type: 'tool_result',
  tool_use_id: id,
  content,
  is_error: isError,
});

function parse(records: unknown[]): AgentSession {
  const parser = createClaudeParser('/x.jsonl');
  for (const r of records) parser.push(r);
  return parser.finish();
}

const calls = (s: AgentSession): SessionToolCall[] => s.events.flatMap((e) => (e.type === 'tool' ? [e.call] : []));

describe('the Claude Code reader', () => {
  it('reads prompts, replies and each call with its result, failure and exit code', () => {
    const s = parse([
      user('Fix the failing test', { timestamp: '2026-01-01T10:00:00.000Z' }),
      assistant([{ type: 'text', text: 'Running the tests.' }, toolUse('t1', 'Bash', { command: 'npm test' })]),
      user([toolResult('t1', 'Exit code 1\nnot ok 1 - adds\n  expected 3, got 4', true)], { timestamp: '2026-01-01T10:01:00.000Z' }),
    ]);
    expect(s).toMatchObject({
      client: 'claude',
      id: 's-1',
      cwd: '/repo',
      clientVersion: '2.1.197',
      model: 'claude-sonnet-4-6',
      ending: 'normal',
      skipped: 0,
    });
    expect(s.startedAt).toBe(Date.parse('2026-01-01T10:00:00.000Z'));
    expect(s.endedAt).toBe(Date.parse('2026-01-01T10:01:00.000Z'));
    expect(s.events.map((e) => e.type)).toEqual(['user', 'assistant', 'tool']);
    expect(calls(s)[0]).toMatchObject({ id: 't1', name: 'Bash', args: { command: 'npm test' }, failed: true, exitCode: 1 });
    expect(calls(s)[0]?.output).toContain('expected 3, got 4');
    expect(calls(s)[0]?.failureLine).toBeDefined();
  });

  it('attaches a result written before its call to that call', () => {
    const s = parse([
      user([toolResult('t9', 'File written')]),
      assistant([toolUse('t9', 'Write', { file_path: '/repo/a.txt', content: 'x' })]),
    ]);
    expect(calls(s)[0]?.output).toBe('File written');
    expect(s.skipped).toBe(0);
  });

  it('counts a malformed, unknown or orphaned record as skipped and never throws', () => {
    const s = parse([undefined, 42, { type: 'brand-new-record' }, user('hi'), user([toolResult('nowhere', 'x')])]);
    expect(s.skipped).toBe(4);
    expect(s.events).toHaveLength(1);
  });

  it('keeps only what the user typed: IDE context, reminders and meta lines out, slash commands as typed', () => {
    const s = parse([
      user([
        { type: 'text', text: '<ide_opened_file>The user opened a.ts</ide_opened_file>' },
        { type: 'text', text: 'Add a test' },
      ]),
      user('<local-command-caveat>Caveat: …</local-command-caveat>', { isMeta: true }),
      user('<command-name>/review</command-name>\n<command-message>review</command-message>\n<command-args>src/a.ts</command-args>'),
    ]);
    expect(s.events).toEqual([
      { type: 'user', text: 'Add a test' },
      { type: 'user', text: '/review src/a.ts' },
    ]);
  });

  it('masks secrets in prompts, arguments and results before keeping them', () => {
    const key = 'sk-ant-api03-' + 'a'.repeat(40);
    const s = parse([
      user(`use ${key}`),
      assistant([toolUse('t1', 'Bash', { command: `curl -H "x-api-key: ${key}" https://x` })]),
      user([toolResult('t1', `echoed ${key}`)]),
    ]);
    expect(JSON.stringify(s)).not.toContain(key);
    expect(JSON.stringify(s)).toContain('[REDACTED');
  });

  it('reads a compaction summary as a compaction, not a prompt', () => {
    const s = parse([user('This session is being continued from a previous conversation. Summary: …', { isCompactSummary: true })]);
    expect(s.events).toEqual([{ type: 'compaction', summary: 'This session is being continued from a previous conversation. Summary: …' }]);
  });

  it('says a usage limit ended the session, in the client words', () => {
    const s = parse([
      user('go on'),
      assistant([{ type: 'text', text: "You've hit your limit · resets 3pm (Europe/Paris)" }], {
        isApiErrorMessage: true,
        error: 'rate_limit',
      }),
    ]);
    expect(s.ending).toBe('usage_limit');
    expect(s.endingMessage).toContain('resets 3pm');
  });

  it('says an interrupted turn ended the session', () => {
    expect(parse([user('go'), user([{ type: 'text', text: '[Request interrupted by user]' }])]).ending).toBe('interrupted');
  });

  it('keeps a 1.0 inline sidechain out of the session and links it to the Task call that started it', () => {
    const s = parse([
      user('look around'),
      assistant([toolUse('task-1', 'Task', { description: 'explore', prompt: 'find x' })]),
      { ...base, type: 'user', isSidechain: true, parentUuid: null, uuid: 'side-root', message: { role: 'user', content: 'find x' } },
      {
        ...base,
        type: 'assistant',
        isSidechain: true,
        parentUuid: 'side-root',
        uuid: 'side-2',
        message: { role: 'assistant', content: [toolUse('in-side', 'Bash', { command: 'ls' })] },
      },
      user([toolResult('task-1', 'found x')]),
    ]);
    expect(calls(s).map((c) => c.id)).toEqual(['task-1']);
    expect(s.subagents).toEqual([{ id: 's-1/side-root', source: '/x.jsonl', parentCallId: 'task-1' }]);
  });

  it('reads a 2.x sub-agent file as the sub-agent session, and links it from the parent with its file', async () => {
    const parentFile = path.join(dir, 's-1.jsonl');
    const agentFile = path.join(dir, 's-1', 'subagents', 'agent-a77.jsonl');
    const lines = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    writeFileSync(
      parentFile,
      lines([
        user('explore'),
        assistant([toolUse('call-a', 'Agent', { description: 'explore', prompt: 'look' })]),
        { ...base, type: 'progress', parentToolUseID: 'call-a', data: { type: 'agent_progress', agentId: 'a77' } },
      ]),
    );
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.dirname(agentFile), { recursive: true });
    writeFileSync(
      agentFile,
      lines([{ ...base, type: 'user', isSidechain: true, parentUuid: null, agentId: 'a77', message: { role: 'user', content: 'look' } }]),
    );
    const parent = (await readClaudeSession(parentFile)).session;
    expect(parent.subagents).toEqual([{ id: 'a77', parentCallId: 'call-a', source: agentFile }]);
    const child = (await readClaudeSession(agentFile)).session;
    expect(child).toMatchObject({ id: 'a77', parentId: 's-1', events: [{ type: 'user', text: 'look' }] });
  });
});
