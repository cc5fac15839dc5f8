import type { LoopEvent } from '../../loop/index.js';
import type { AgentSession } from '../types.js';

/**
 * A session as the loop context manager records it: user requests, assistant replies, each tool
 * call as an assistant call followed by its result (exit code and failure kept), a compaction
 * summary as a user message (the clients send it as one). Pure.
 */
export function sessionLoopEvents(session: AgentSession, system: string): LoopEvent[] {
  const out: LoopEvent[] = [{ kind: 'system', text: system }];
  session.events.forEach((e, i) => {
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
