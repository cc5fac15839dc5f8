import { describe, expect, it } from 'vitest';
import { type AgentSession, createCodexParser, type SessionToolCall } from '../../src/sessions/index.js';

function parse(records: unknown[]): AgentSession {
  const parser = createCodexParser('/rollout.jsonl');
  for (const r of records) parser.push(r);
  return parser.finish();
}
const calls = (s: AgentSession): SessionToolCall[] => s.events.flatMap((e) => (e.type === 'tool' ? [e.call] : []));
const item = (payload: Record<string, unknown>, timestamp = '2026-02-10T04:00:00.000Z') => ({ timestamp, type: 'response_item', payload });
const event = (payload: Record<string, unknown>) => ({ timestamp: '2026-02-10T04:00:01.000Z', type: 'event_msg', payload });
const meta = {
  timestamp: '2026-02-10T03:57:33.202Z',
  type: 'session_meta',
  payload: { id: 'th-1', cwd: '/repo', cli_version: '0.171.0', timestamp: '2026-02-10T03:57:33.163Z' },
};

describe('the Codex CLI reader', () => {
  it('takes id, cwd, version and model from the rollout, and each prompt once though Codex records it twice', () => {
    const s = parse([
      meta,
      { type: 'turn_context', payload: { cwd: '/repo', model: 'gpt-5.5' } },
      item({
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '<environment_context>\n<cwd>/repo</cwd></environment_context>' }],
      }),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'A' }] }),
      event({ type: 'user_message', message: 'A' }),
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }),
      event({ type: 'user_message', message: 'A' }),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'A' }] }),
    ]);
    expect(s).toMatchObject({ client: 'codex', id: 'th-1', cwd: '/repo', clientVersion: '0.171.0', model: 'gpt-5.5', skipped: 0 });
    expect(s.events.map((e) => (e.type === 'user' || e.type === 'assistant' ? `${e.type}:${e.text}` : e.type))).toEqual([
      'user:A',
      'assistant:ok',
      'user:A',
    ]);
  });

  it('reads all three shell generations with their exit codes, and apply_patch as a custom tool', () => {
    const s = parse([
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["bash","-lc","npm test"]}', call_id: 'c1' }),
      item({
        type: 'function_call_output',
        call_id: 'c1',
        output: '{"output":"not ok 1 - adds\\n","metadata":{"exit_code":1,"duration_seconds":0.5}}',
      }),
      item({ type: 'function_call', name: 'shell_command', arguments: '{"command":"ls"}', call_id: 'c2' }),
      item({ type: 'function_call_output', call_id: 'c2', output: 'Exit code: 0\nWall time: 0 seconds\nOutput:\na.txt\n' }),
      item({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"make"}', call_id: 'c3' }),
      item({
        type: 'function_call_output',
        call_id: 'c3',
        output: 'Chunk ID: e4\nWall time: 1.2 seconds\nProcess exited with code 2\nOriginal token count: 9\nOutput:\nmake: *** No rule\n',
      }),
      item({
        type: 'custom_tool_call',
        name: 'apply_patch',
        call_id: 'c4',
        input: '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n',
      }),
      item({ type: 'custom_tool_call_output', call_id: 'c4', output: 'apply_patch verification failed: a.txt exists' }),
    ]);
    expect(calls(s).map((c) => [c.name, c.failed, c.exitCode, c.output])).toEqual([
      ['shell', true, 1, 'not ok 1 - adds\n'],
      ['shell_command', false, 0, 'a.txt\n'],
      ['exec_command', true, 2, 'make: *** No rule\n'],
      ['apply_patch', true, undefined, 'apply_patch verification failed: a.txt exists'],
    ]);
    expect(calls(s)[0]?.args).toEqual({ command: ['bash', '-lc', 'npm test'] });
    expect(calls(s)[3]?.args).toBe('*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n');
  });

  it('says a usage limit, in Codex words, ended the session', () => {
    const s = parse([
      meta,
      event({ type: 'user_message', message: 'go' }),
      event({ type: 'error', message: "You've hit your usage limit. Try again at 3:05 PM." }),
    ]);
    expect(s.ending).toBe('usage_limit');
    expect(s.endingMessage).toContain('Try again at');
  });

  it('reads a compaction and an aborted turn', () => {
    const s = parse([
      meta,
      { type: 'compacted', payload: { message: 'Summary of the work so far' } },
      event({ type: 'turn_aborted', reason: 'interrupted' }),
    ]);
    expect(s.events).toEqual([{ type: 'compaction', summary: 'Summary of the work so far' }]);
    expect(s.ending).toBe('interrupted');
  });

  it('counts a line of no known shape as skipped, never throws', () => {
    expect(parse([null, 'x', { type: 'response_item' }, { type: 'mystery', payload: {} }]).skipped).toBe(4);
  });
});
