import type { Trajectory } from '../src/bench/index.js';
import type { ScriptedStep } from './adapters-server.js';

/** A long recorded loop: the system prompt and task, then each model action with the output it got. */
export interface RecordedLoop {
  system: string;
  task: string;
  steps: ScriptedStep[];
  /** The tool output each action got, in order. */
  observations: string[];
  /** Trajectories the steps came from. */
  sources: string[];
}

/**
 * Joins the actions of recorded trajectories, in order, into one loop of `count` tool steps and a
 * final answer (the fixtures are 4-21 steps each; a loop of 200 needs several), keeping the first
 * trajectory's system prompt and task.
 */
export function recordedLoop(trajectories: readonly Trajectory[], count: number): RecordedLoop {
  const first = trajectories[0];
  if (!first) throw new Error('no trajectories to replay: pass --traj FILE_OR_DIR');
  const loop: RecordedLoop = {
    system: first.events.find((e) => e.kind === 'system')?.text ?? 'You are a coding agent.',
    task: first.task,
    steps: [],
    observations: [],
    sources: [],
  };
  while (loop.steps.length < count) {
    for (const trajectory of trajectories) {
      const before = loop.steps.length;
      addActions(trajectory, loop, count);
      if (loop.steps.length > before && !loop.sources.includes(trajectory.id)) loop.sources.push(trajectory.id);
      if (loop.steps.length >= count) break;
    }
  }
  loop.steps.push({ answer: 'Done: the recorded loop is replayed.' });
  return loop;
}

function addActions(trajectory: Trajectory, loop: RecordedLoop, count: number): void {
  const { events } = trajectory;
  events.forEach((event, i) => {
    if (loop.steps.length >= count || event.kind !== 'assistant' || !event.toolCalls?.length) return;
    const call = event.toolCalls[0]!;
    const result = events.slice(i + 1).find((e) => e.kind === 'tool' && e.callId === call.id);
    const command = typeof call.args.command === 'string' ? call.args.command : JSON.stringify(call.args);
    loop.steps.push({ command });
    loop.observations.push(result?.kind === 'tool' ? result.text : '');
  });
}
