import type { AgentSession, SessionToolCall } from '../../sessions/index.js';

/** A session as model calls see it: user messages, and model responses with the calls they made. */
export type SessionTurn =
  { kind: 'user'; text: string; eventsBefore: number } | { kind: 'response'; text: string; calls: SessionToolCall[]; eventsBefore: number };

/**
 * Groups a session's events into user messages and model responses: a reply's text and the call
 * after it are one response, each further call its own response (a session record does not say
 * which calls one response made together, and most agents make one call per response). A
 * compaction summary is a user message (Claude Code sends it as one). `eventsBefore` counts the
 * session events before the turn, for the facts at that model call. Pure.
 */
export function sessionTurns(session: AgentSession): SessionTurn[] {
  const turns: SessionTurn[] = [];
  let open: Extract<SessionTurn, { kind: 'response' }> | undefined;
  session.events.forEach((e, i) => {
    if (e.type === 'user' || e.type === 'compaction') {
      const text = e.type === 'user' ? e.text : e.summary;
      open = undefined;
      if (text.trim()) turns.push({ kind: 'user', text, eventsBefore: i });
    } else if (e.type === 'assistant') {
      open = { kind: 'response', text: e.text, calls: [], eventsBefore: i };
      turns.push(open);
    } else if (open && open.calls.length === 0) open.calls.push(e.call);
    else {
      open = { kind: 'response', text: '', calls: [e.call], eventsBefore: i };
      turns.push(open);
    }
  });
  return turns;
}
