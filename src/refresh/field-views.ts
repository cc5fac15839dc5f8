import { blockers, detectContinuationState } from './continuation-state.js';
import { pickFailureLine } from '../vocabulary/index.js';
import type { ContextSnapshot } from './types.js';

// The JSON views of one task and one dispatch, and the text cuts the context fields use.

export function taskView(task: NonNullable<ContextSnapshot['task']>, detailed: boolean) {
  return {
    id: task.id,
    title: task.title,
    status: task.status,
    priority: task.priority,
    difficulty: task.difficulty ?? null,
    mode: task.mode ?? null,
    description: clip(task.intent || task.title, 500),
    instructions: detailed || task.instructions.length < 1200 ? task.instructions : undefined,
    acceptance_criteria: task.acceptanceCriteria,
    depends_on: task.dependsOn,
    block_reason: task.blockReason,
    result_summary: task.resultSummary,
    created_at: new Date(task.createdAt).toISOString(),
    updated_at: new Date(task.updatedAt).toISOString(),
    skills: task.links.skills ?? [],
    research: task.links.research ?? [],
    workflows: task.links.workflow ? [task.links.workflow] : [],
  };
}

export function dispatchView(d: ContextSnapshot['dispatches'][number], long: boolean) {
  return {
    id: d.id,
    task_id: d.taskId,
    attempt: d.attempt,
    provider: d.provider,
    model: d.model,
    status: d.status,
    outcome: d.outcome,
    claimed_by: d.claimedBy,
    started_at: new Date(d.startedAt).toISOString(),
    finished_at: d.finishedAt ? new Date(d.finishedAt).toISOString() : undefined,
    result: d.result ? (long ? clipKeepingErrors(d.result, 2000) : clip(d.result, 300)) : undefined,
    validation_errors: d.validationErrors.length > 0 ? d.validationErrors.slice(0, long ? 20 : 3).map((e) => clip(e, 300)) : undefined,
    files: [...d.filesCreated, ...d.filesUpdated].slice(0, long ? 50 : 10),
    prompt_preview: long && d.promptPreview ? clip(d.promptPreview, 300) : undefined,
  };
}

/** One line telling the agent what to do next, from the §3.3 state. */
export function nextAction(snapshot: ContextSnapshot): string {
  switch (detectContinuationState(snapshot)) {
    case 'no_task':
      return 'No active task: pick one from the open tasks or create one.';
    case 'completed':
      return `Task ${snapshot.task?.id} is ${snapshot.task?.status}: nothing to resume; review its result or pick the next open task.`;
    case 'just_started':
      return `Start task ${snapshot.task?.id}: review requirements, plan, implement.`;
    case 'blocked':
      return `Resolve or work around: ${clip(blockers(snapshot)[0] ?? 'blocker', 160)}`;
    case 'failed_attempt':
      return `Fix what failed in dispatch ${snapshot.dispatches[0]?.id}, then re-run the checks.`;
    default:
      return `Resume task ${snapshot.task?.id}${snapshot.git?.uncommitted ? ` (${snapshot.git.uncommitted} uncommitted files)` : ''}.`;
  }
}

const ERROR_LINE = /error|fail|exception|traceback|panic|expected|assert|cannot|denied|not found|timed? ?out|exit (code|status)|✗|×/i;
/** @default 400 characters of error lines per attempt result when it is cut. */
const ERROR_LINES_MAX_CHARS = 400;

/**
 * A long attempt result cut to the lines that say what went wrong, the telling one first (the
 * vocabulary's one failure-line picker: the assertion, the error, `not ok`, `FAIL`), or its first
 * and last line.
 */
export function errorLines(result: string): string {
  const lines = result
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const picked = ERROR_LINE.test(result) ? pickFailureLine(result) : undefined;
  const errors = [...new Set([...(picked ? [picked] : []), ...lines.filter((l) => ERROR_LINE.test(l))])];
  const kept = errors.length > 0 ? errors : lines.length > 2 ? [lines[0] ?? '', '…', lines.at(-1) ?? ''] : lines;
  return clip(kept.map((l) => clip(l, 200)).join('\n'), ERROR_LINES_MAX_CHARS);
}

/** A long result as its error lines, then its tail (the latest output), within `max` characters. */
function clipKeepingErrors(text: string, max: number): string {
  if (text.length <= max) return text;
  const errors = errorLines(text);
  return `${errors}\n…\n${text.slice(-(max - errors.length - 3))}`;
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
