import { fromAnthropicMessages, fromModelMessages, fromOpenAIMessages, type LoopEvent } from '../../loop/index.js';
import type { AgentSession } from '../../sessions/index.js';
import { extractSessionFacts } from '../facts/extract-session-facts.js';
import type { Replay } from './replay.js';
import { toAnthropicSession, toModelMessagesSession, toOpenAISession } from './session-messages.js';
import { sessionTurns } from './session-turns.js';

/**
 * A session fed the way a user of that client's API would feed it: Claude Code's as an Anthropic
 * messages array through `fromAnthropicMessages`, Codex's and Copilot's as OpenAI chat messages
 * through `fromOpenAIMessages`, Gemini's as AI SDK model messages through `fromModelMessages`; the
 * system prompt first (session records do not keep theirs: the caller gives one). Every model
 * response is a model call, scored against the facts of the session events before it. Pure.
 */
export function sessionReplay(session: AgentSession, system: string): Replay {
  const turns = sessionTurns(session);
  const events: LoopEvent[] = [{ kind: 'system', text: system }, ...loopEventsOf(session, turns)];
  const steps: number[] = [];
  events.forEach((e, i) => {
    if (e.kind === 'assistant') steps.push(i);
  });
  const responses = turns.filter((t) => t.kind === 'response');
  const facts = responses.map((t) => extractSessionFacts(session.events.slice(0, t.eventsBefore)));
  const task = turns.find((t) => t.kind === 'user')?.text;
  return { id: session.id, client: session.client, events, steps: steps.slice(0, facts.length), facts, system, ...(task ? { task } : {}) };
}

function loopEventsOf(session: AgentSession, turns: ReturnType<typeof sessionTurns>): LoopEvent[] {
  if (session.client === 'claude') return fromAnthropicMessages({ messages: toAnthropicSession(turns) });
  if (session.client === 'gemini') return fromModelMessages(toModelMessagesSession(turns));
  return fromOpenAIMessages(toOpenAISession(turns, session.client));
}
