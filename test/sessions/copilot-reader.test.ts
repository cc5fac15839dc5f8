import { describe, expect, it } from 'vitest';
import { type AgentSession, createCopilotParser, type SessionToolCall } from '../../src/sessions/index.js';

function parse(records: unknown[]): AgentSession {
  const parser = createCopilotParser('/session-state/abc/events.jsonl');
  for (const r of records) parser.push(r);
  return parser.finish();
}
const calls = (s: AgentSession): SessionToolCall[] => s.events.flatMap((e) => (e.type === 'tool' ? [e.call] : []));
const ev = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type,
  data,
  timestamp: '2026-11-28T04:36:45.000Z',
  ...extra,
});

describe('the Copilot CLI reader', () => {
  it('reads the session start, prompts without the injected date, and calls with their shell exit code', () => {
    const s = parse([
      ev('session.start', {
        sessionId: 'cp-1',
        copilotVersion: '1.0.102',
        selectedModel: 'gpt-4.1',
        context: { cwd: '/repo', gitRoot: '/repo' },
      }),
      ev('user.message', { content: 'run the tests\n\n<current_datetime>2026-11-28T04:36:45Z</current_datetime>' }),
      ev('tool.execution_start', { toolCallId: 't1', toolName: 'bash', arguments: { command: 'npm test' } }),
      ev('tool.execution_complete', { toolCallId: 't1', success: true, shellExecution: { exitCode: 1 }, result: { content: 'not ok 1' } }),
      ev('tool.execution_start', { toolCallId: 't2', toolName: 'powershell', arguments: { command: 'dir' } }),
      ev('tool.execution_complete', { toolCallId: 't2', success: true, result: { content: 'x\n<exited with exit code 3>' } }),
      ev('assistant.message', { content: 'The tests fail.', model: 'gpt-4.1' }),
    ]);
    expect(s).toMatchObject({
      client: 'copilot',
      id: 'cp-1',
      clientVersion: '1.0.102',
      cwd: '/repo',
      gitRoot: '/repo',
      model: 'gpt-4.1',
      ending: 'normal',
    });
    expect(s.events[0]).toEqual({ type: 'user', text: 'run the tests', at: Date.parse('2026-11-28T04:36:45.000Z') });
    expect(calls(s).map((c) => [c.failed, c.exitCode])).toEqual([
      [true, 1],
      [true, 3],
    ]);
  });

  it('keeps a sub-agent events out and links it by the call that started it', () => {
    const s = parse([
      ev('tool.execution_start', { toolCallId: 'task-1', toolName: 'task', arguments: { prompt: 'look' } }),
      ev(
        'subagent.started',
        { toolCallId: 'task-1', agentName: 'explore', agentDisplayName: 'Explore', agentDescription: '' },
        { agentId: 'ag-1' },
      ),
      ev('tool.execution_start', { toolCallId: 'inner', toolName: 'view', arguments: { path: '.' } }, { agentId: 'ag-1' }),
    ]);
    expect(calls(s).map((c) => c.id)).toEqual(['task-1']);
    expect(s.subagents).toEqual([{ id: 'ag-1', parentCallId: 'task-1' }]);
  });

  it('says a rate limit error ended the session with a usage limit, and reads a compaction summary', () => {
    const s = parse([
      ev('session.compaction_complete', { summaryContent: 'We fixed the adder.' }),
      ev('session.error', { errorType: 'rate_limit', message: 'You have hit the rate limit' }),
    ]);
    expect(s.events).toEqual([{ type: 'compaction', summary: 'We fixed the adder.', at: Date.parse('2026-11-28T04:36:45.000Z') }]);
    expect(s.ending).toBe('usage_limit');
  });
});
