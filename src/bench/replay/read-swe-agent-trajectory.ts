import { BatonError } from '../../errors/index.js';
import { contentText, diffPaths, type LoopEvent, parseArgs, type ToolCall } from '../../loop/index.js';
import * as z from 'zod';
import type { Trajectory } from './types.js';

const toolCall = z.looseObject({
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.unknown() }).nullish(),
});

const message = z.looseObject({
  role: z.string().nullish(),
  content: z.unknown(),
  is_demo: z.boolean().nullish(),
  action: z.string().nullish(),
  tool_calls: z.array(toolCall).nullish(),
  tool_call_ids: z.array(z.string()).nullish(),
  message_type: z.string().nullish(),
});

const step = z.looseObject({
  action: z.string().nullish(),
  observation: z.string().nullish(),
  response: z.string().nullish(),
  state: z.unknown(),
});

/**
 * The parts of a SWE-agent `.traj` a replay reads; everything else passes through untouched.
 * Lenient on purpose (null or missing fields are fine) so both schema generations parse.
 */
const sweAgentTrajectorySchema = z.looseObject({
  history: z.array(message).nullish(),
  trajectory: z.array(step).nullish(),
  info: z.looseObject({ submission: z.string().nullish() }).nullish(),
});

type HistoryMessage = z.infer<typeof message>;
type TrajectoryStep = z.infer<typeof step>;

/**
 * Reads a SWE-agent `.traj` (both schema generations: older files have `history` messages without
 * `message_type` and observations as user messages; newer ones tag each message and may carry
 * function `tool_calls` answered by `tool` messages). Demonstrations become reference material,
 * the first other user message is the task, and each model turn is one step. Pure.
 *
 * @throws BatonError('INPUT_INVALID') when the JSON has neither `history` nor `trajectory`.
 */
export function readSweAgentTrajectory(json: unknown, id: string): Trajectory {
  const parsed = sweAgentTrajectorySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || '(root)';
    throw new BatonError('INPUT_INVALID', `${id}: field ${field}: ${issue?.message ?? 'invalid'}`, {
      details: { file: id, field },
    });
  }
  const doc = parsed.data;
  const history = doc.history ?? undefined;
  const trajectory = doc.trajectory ?? [];
  if (!history && trajectory.length === 0) {
    throw new BatonError('INPUT_INVALID', `${id}: not a SWE-agent trajectory (no "history" or "trajectory" array)`, {
      details: { file: id },
    });
  }
  const events: LoopEvent[] = [];
  const steps: number[] = [];
  let task: string | undefined;
  let pending: ToolCall[] = [];
  const messages = history ?? fromTrajectory(trajectory);
  for (const m of messages) {
    const text = contentText(m.content);
    const role = m.role ?? 'user';
    if (m.is_demo || m.message_type === 'demonstration') {
      events.push({ kind: 'user', text, reference: true });
    } else if (role === 'system') {
      events.push({ kind: 'system', text });
    } else if (role === 'assistant') {
      pending = toolCalls(m, steps.length);
      steps.push(events.length);
      events.push({ kind: 'assistant', text, toolCalls: pending });
    } else if (role === 'tool' || (role === 'user' && task !== undefined && pending.length > 0)) {
      const callId = m.tool_call_ids?.[0] ?? pending[0]?.id ?? `step-${steps.length}`;
      const call = pending.find((c) => c.id === callId) ?? pending[0];
      const openFile = openFileOf(trajectory[steps.length - 1]?.state) ?? /\(Open file: ([^)]+)\)/.exec(text)?.[1];
      events.push({ kind: 'tool', callId, name: call?.name ?? 'tool', text, ...(openFile ? { openFile } : {}) });
      pending = pending.filter((c) => c !== call);
    } else if (task === undefined) {
      task = text;
      events.push({ kind: 'user', text });
    } else {
      events.push({ kind: 'user', text });
    }
  }
  return { id, format: 'swe-agent', events, steps, task: task ?? '', patchPaths: diffPaths(doc.info?.submission ?? '') };
}

function toolCalls(m: HistoryMessage, step: number): ToolCall[] {
  if (m.tool_calls?.length) {
    return m.tool_calls.map((c, i) => ({
      id: c.id ?? `step-${step}-${i}`,
      name: c.function?.name ?? 'tool',
      args: parseArgs(c.function?.arguments),
    }));
  }
  const action = m.action?.trim();
  if (!action) return [];
  return [{ id: `step-${step}`, name: action.split(/\s+/)[0] ?? 'action', args: { command: action } }];
}

/** Older files store `state` as a JSON string, newer ones as a Python dict string or an object. */
function openFileOf(state: unknown): string | undefined {
  if (state && typeof state === 'object') {
    const value = (state as { open_file?: unknown }).open_file;
    return typeof value === 'string' && value !== 'n/a' ? value : undefined;
  }
  if (typeof state !== 'string') return undefined;
  const m = /["']open_file["']\s*:\s*["']([^"']*)["']/.exec(state);
  return m?.[1] && m[1] !== 'n/a' ? m[1] : undefined;
}

/** Files with only `trajectory` steps: rebuild the turns from responses and observations. */
function fromTrajectory(steps: TrajectoryStep[]): HistoryMessage[] {
  const out: HistoryMessage[] = [];
  for (const s of steps) {
    out.push({ role: 'assistant', content: s.response ?? '', ...(s.action ? { action: s.action } : {}) });
    out.push({ role: 'user', content: s.observation ?? '' });
  }
  return out;
}
