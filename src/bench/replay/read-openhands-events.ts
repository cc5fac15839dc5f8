import { BatonError } from '../../errors/index.js';
import { contentText, diffPaths, type LoopEvent, parseArgs } from '../../loop/index.js';
import type { Trajectory } from './types.js';

interface OpenHandsEvent {
  id?: number | string;
  source?: string;
  action?: string;
  observation?: string;
  args?: Record<string, unknown>;
  content?: unknown;
  message?: string;
  extras?: Record<string, unknown>;
  cause?: number | string;
  tool_call_metadata?: { function_name?: string; tool_call_id?: string };
}

const SKIP = new Set(['recall', 'agent_state_changed', 'null', 'change_agent_state', 'condensation']);

/**
 * Reads an OpenHands event stream (one JSON event per line, or a JSON array): the system and user
 * messages, agent actions as model turns with one tool call, and observations as the results of
 * the action their `cause` names. Bookkeeping events are skipped. Pure.
 *
 * @throws BatonError('INPUT_INVALID') naming the line that is not JSON.
 */
export function readOpenHandsEvents(text: string, id: string): Trajectory {
  return openHandsTrajectory(parseLines(text, id), id);
}

/**
 * Reads OpenHands evaluation output (`output.jsonl`: one instance per line with a `history` of
 * events, or of `[action, observation]` pairs in older runs, and `test_result.git_patch`).
 * Returns one trajectory per instance. Pure.
 */
export function readOpenHandsInstances(text: string, id: string): Trajectory[] {
  return parseLines(text, id).map((line, i) => {
    const record = line as OpenHandsEvent & {
      history?: unknown[];
      instance_id?: string;
      instruction?: string;
      test_result?: { git_patch?: string };
    };
    const events = (record.history ?? []).flatMap((h) => (Array.isArray(h) ? (h as OpenHandsEvent[]) : [h as OpenHandsEvent]));
    const trajectory = openHandsTrajectory(events, `${id}#${record.instance_id ?? i + 1}`);
    if (!trajectory.task && record.instruction) {
      trajectory.task = record.instruction;
      trajectory.events.splice(trajectory.events[0]?.kind === 'system' ? 1 : 0, 0, { kind: 'user', text: record.instruction });
      trajectory.steps = trajectory.steps.map((s) => s + 1);
    }
    trajectory.patchPaths = diffPaths(record.test_result?.git_patch ?? '');
    return trajectory;
  });
}

/** True when JSONL lines are evaluation instances (each with a `history`), not single events. */
export function isOpenHandsInstances(text: string): boolean {
  const first = text.trimStart().split('\n', 1)[0] ?? '';
  try {
    const parsed = JSON.parse(first) as { history?: unknown };
    return Array.isArray(parsed.history);
  } catch {
    return false;
  }
}

function openHandsTrajectory(raw: OpenHandsEvent[], id: string): Trajectory {
  const events: LoopEvent[] = [];
  const steps: number[] = [];
  const callIds = new Map<string, { callId: string; name: string }>();
  let task: string | undefined;
  for (const e of raw) {
    const kind = e.action ?? e.observation ?? '';
    if (SKIP.has(kind)) continue;
    const args = e.args ?? {};
    if (e.action === 'system') {
      events.push({ kind: 'system', text: contentText(args.content ?? e.content ?? e.message) });
    } else if (e.action === 'message' && e.source === 'user') {
      const content = contentText(args.content ?? e.message);
      if (task === undefined) task = content;
      events.push({ kind: 'user', text: content });
    } else if (e.action !== undefined && e.source === 'agent') {
      const thought = contentText(args.thought ?? '');
      const { thought: _t, ...callArgs } = args;
      if (e.action === 'message' || e.action === 'finish' || e.action === 'think') {
        const say = contentText(args.content ?? args.final_thought ?? args.message ?? e.message ?? '');
        steps.push(events.length);
        events.push({ kind: 'assistant', text: [thought, say].filter(Boolean).join('\n') });
        continue;
      }
      const name = e.tool_call_metadata?.function_name ?? e.action;
      const callId = e.tool_call_metadata?.tool_call_id ?? `oh-${e.id ?? events.length}`;
      callIds.set(String(e.id), { callId, name });
      steps.push(events.length);
      events.push({ kind: 'assistant', text: thought, toolCalls: [{ id: callId, name, args: parseArgs(callArgs) }] });
    } else if (e.observation !== undefined) {
      const call = callIds.get(String(e.cause));
      if (!call) continue;
      const exit = (e.extras?.metadata as { exit_code?: unknown } | undefined)?.exit_code ?? e.extras?.exit_code;
      events.push({
        kind: 'tool',
        callId: call.callId,
        name: call.name,
        text: contentText(e.content ?? e.message),
        ...(typeof exit === 'number' ? { exitCode: exit } : {}),
      });
    }
  }
  return { id, format: 'openhands', events, steps, task: task ?? '', patchPaths: [] };
}

function parseLines(text: string, id: string): OpenHandsEvent[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return JSON.parse(trimmed) as OpenHandsEvent[];
  const out: OpenHandsEvent[] = [];
  trimmed.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(JSON.parse(line) as OpenHandsEvent);
    } catch (cause) {
      throw new BatonError('INPUT_INVALID', `${id}: line ${i + 1} is not JSON`, { cause, details: { file: id, line: i + 1 } });
    }
  });
  return out;
}
