import { describe, expect, it } from 'vitest';
import { type AgentSession, buildHandoff, sessionLoopEvents } from '../../src/sessions/index.js';

/** A long session: the task, then 400 shell calls, the last one failing. */
function longSession(): AgentSession {
  const events: AgentSession['events'] = [{ type: 'user', text: 'Make the parser accept empty files' }];
  for (let i = 0; i < 400; i += 1) {
    const last = i === 399;
    events.push({
      type: 'tool',
      call: {
        name: 'Bash',
        kind: 'shell',
        paths: [],
        key: `npm test -- step${i}`,
        args: { command: `npm test -- step${i}` },
        output: last ? 'FAIL test/parser.test.ts\nExpected 0, received 1' : `ok step${i}`,
        failed: last,
        ...(last ? { exitCode: 1 } : {}),
      },
    });
  }
  return { client: 'claude', id: 'long-session', source: 'x.jsonl', ending: 'normal', events, subagents: [], skipped: 0 };
}

describe('sessionLoopEvents with a tail', () => {
  it('keeps the first request and only the newest events', () => {
    const session = longSession();
    const all = sessionLoopEvents(session, 'sys');
    const tail = sessionLoopEvents(session, 'sys', 10);
    expect(all).toHaveLength(1 + 1 + 400 * 2);
    // system, the task, then the newest 10 session events (each call is a call and its result)
    expect(tail).toHaveLength(1 + 1 + 10 * 2);
    expect(tail[1]).toEqual({ kind: 'user', text: 'Make the parser accept empty files' });
    expect(JSON.stringify(tail)).toContain('step399');
    expect(JSON.stringify(tail)).not.toContain('step389"');
  });

  it('a handoff of a long session still names its task, newest failure and last actions', async () => {
    const { text, tokens, budget } = await buildHandoff({ session: longSession(), target: 'codex' });
    expect(tokens).toBeLessThanOrEqual(budget);
    expect(text).toContain('Make the parser accept empty files');
    expect(text).toContain('FAIL test/parser.test.ts');
    expect(text).toContain('npm test -- step399');
  });
});
