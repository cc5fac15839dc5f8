import type { SupervisorEvent } from '../../../supervisor/index.js';

const SEAM_TITLE = {
  circuit_breaker: 'provider switch',
  retry: 'retry',
  helper: 'helper agent',
  merge_conflict: 'merge conflict',
} as const;

/**
 * The demo's narration of one supervisor event; undefined for events it does not show. With
 * `tagged` (tasks running at once) each indented line names its task.
 */
export function describeDemoEvent(event: SupervisorEvent, tagged = false): string | undefined {
  const text = narrate(event);
  if (!text || !tagged || !('taskId' in event)) return text;
  return text.replace(/^ {2}(?! {2}\|)/gm, `  [${event.taskId}] `);
}

function narrate(event: SupervisorEvent): string | undefined {
  switch (event.type) {
    case 'attempt-start':
      return `[${event.taskId}] attempt ${event.attempt}`;
    case 'breaker-skip':
      return `  ${event.provider}: skipped, its circuit breaker is open`;
    case 'dispatch-end':
      return `  ${event.provider}${event.mode === 'helper' ? ' (helper)' : ''} -> ${event.outcome}`;
    case 'context':
      return `  injected at the ${SEAM_TITLE[event.kind]} seam:\n${indent(event.text.trimEnd())}`;
    case 'helper-checks':
      return event.checks.map((c) => `  helper wrote a check for "${c.criterion}": ${c.command} (${c.ok ? 'passes' : 'fails'})`).join('\n');
    case 'validation':
      return event.passed ? '  validation passed' : `  validation failed:\n${event.errors.map((e) => `    - ${e}`).join('\n')}`;
    case 'integration':
      return event.ok ? `  integrated ${event.detail}` : `  not integrated: ${event.detail}`;
    case 'task-end':
      return `[${event.taskId}] ${event.status}${event.reason ? `: ${event.reason}` : ''}\n`;
    default:
      return undefined;
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `    | ${l}`)
    .join('\n');
}
