import type { LoopEvent } from '../../loop/index.js';
import type { AgentSession } from '../types.js';

/**
 * Session events a handoff's transcript records: its ~1,500 tokens hold far fewer (older ones are
 * masked to a line). 100, not 300: reading, recording and assembling the tail is most of
 * `baton handoff --print`'s own work on a long session, and `npm run bench -- handoff` scores the
 * same with 100, 150, 200 or 300 (macro 0.9988-0.9989 on the 38 fixtures; the header's facts come
 * from the ledger's record of the whole session).
 */
export const TRANSCRIPT_TAIL_EVENTS = 100;

/**
 * A session as the loop context manager records it: user requests, assistant replies, each tool
 * call as an assistant call followed by its result (exit code and failure kept), a compaction
 * summary as a user message (the clients send it as one). With `tail`, only the session's first
 * request (the loop's goal) and its newest `tail` events: a handoff's transcript is a few thousand
 * tokens of the newest work, so a long session's older events would be recorded only to be masked
 * (the facts header lists the whole session's files, failure and plan). Pure.
 */
export function sessionLoopEvents(session: AgentSession, system: string, tail?: number): LoopEvent[] {
  const out: LoopEvent[] = [{ kind: 'system', text: system }];
  const first = session.events.findIndex((e) => e.type === 'user');
  const from = tail === undefined ? 0 : Math.max(0, session.events.length - tail);
  session.events.forEach((e, i) => {
    if (i < from && i !== first) return;
    if (e.type === 'user') out.push({ kind: 'user', text: e.text });
    else if (e.type === 'compaction') out.push({ kind: 'user', text: e.summary });
    else if (e.type === 'assistant') out.push({ kind: 'assistant', text: e.text });
    else {
      const callId = e.call.id ?? `call-${i}`;
      const args = e.call.args && typeof e.call.args === 'object' && !Array.isArray(e.call.args) ? e.call.args : { input: e.call.args };
      out.push({ kind: 'assistant', text: '', toolCalls: [{ id: callId, name: e.call.name, args: args as Record<string, unknown> }] });
      out.push({
        kind: 'tool',
        callId,
        name: e.call.name,
        text: e.call.output ?? '',
        ...(e.call.exitCode === undefined ? {} : { exitCode: e.call.exitCode }),
        ...(e.call.failed ? { isError: true } : {}),
      });
    }
  });
  return out;
}
