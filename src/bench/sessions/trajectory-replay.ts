import type { LoopEvent } from '../../loop/index.js';
import { failureOf } from '../../vocabulary/index.js';
import { extractSessionFacts } from '../facts/extract-session-facts.js';
import type { FactEvent } from '../facts/types.js';
import type { Trajectory } from '../replay/types.js';
import type { Replay } from './replay.js';

/** A SWE-agent or OpenHands trajectory as a facts replay: its own events and model calls. Pure. */
export function trajectoryReplay(trajectory: Trajectory): Replay {
  const facts = trajectory.steps.map((end) => extractSessionFacts(factEventsOfLoop(trajectory.events.slice(0, end))));
  const system = trajectory.events.find((e) => e.kind === 'system')?.text;
  return {
    id: trajectory.id,
    client: trajectory.format,
    events: trajectory.events,
    steps: trajectory.steps,
    facts,
    ...(system === undefined ? {} : { system }),
    task: trajectory.task,
  };
}

/**
 * Loop events as fact events: the task and later user messages (not reference material), replies,
 * and each result with its call; whether a call failed comes from the vocabulary (failureOf: the
 * loop event's error flag or exit code, else the output). Pure.
 */
export function factEventsOfLoop(events: readonly LoopEvent[]): FactEvent[] {
  const calls = new Map<string, { name: string; args: unknown }>();
  const out: FactEvent[] = [];
  for (const e of events) {
    if (e.kind === 'user' && !e.reference) out.push({ type: 'user', text: e.text });
    else if (e.kind === 'assistant') {
      out.push({ type: 'assistant', text: e.text });
      for (const c of e.toolCalls ?? []) calls.set(c.id, c);
    } else if (e.kind === 'tool') {
      const call = calls.get(e.callId) ?? { name: e.name, args: {} };
      const failure = failureOf({
        name: call.name,
        args: call.args,
        output: e.text,
        ...(e.exitCode === undefined ? {} : { exitCode: e.exitCode }),
      });
      out.push({
        type: 'tool',
        call: {
          name: call.name,
          args: call.args,
          output: e.text,
          failed: failure.failed,
          ...(e.openFile ? { openFile: e.openFile } : {}),
        },
      });
    }
  }
  return out;
}
