import { claimHolderState, type EventSink, type SupervisorEvent } from '../../../supervisor/index.js';
import type { CliIO } from '../../context.js';

const CLEAR_LINE = '\r\x1b[2K';

/**
 * The run's progress: on a TTY one status line redrawn in place (task, attempt, provider,
 * outcome) plus a line per finished task; otherwise plain lines. With --json progress goes to
 * stderr so stdout holds only the report.
 */
export function createProgress(io: CliIO, options: { json: boolean }): { onEvent: EventSink; finish: () => void } {
  const write = options.json ? io.stderr : io.stdout;
  const live = io.isTTY && !options.json;
  let status = '';
  const redraw = (text: string) => {
    status = text;
    write(`${CLEAR_LINE}${text}`);
  };
  const line = (text: string) => {
    if (live && status) write(CLEAR_LINE);
    write(`${text}\n`);
    if (live && status) write(status);
  };
  return {
    onEvent(event: SupervisorEvent) {
      const text = describe(event);
      if (!text) return;
      if (live && event.type !== 'task-end' && event.type !== 'context' && event.type !== 'task-skip' && event.type !== 'notice')
        redraw(text);
      else line(text);
    },
    finish() {
      if (live && status) write(CLEAR_LINE);
      status = '';
    },
  };
}

function describe(event: SupervisorEvent): string | undefined {
  switch (event.type) {
    case 'attempt-start':
      return `${event.taskId}: attempt ${event.attempt}`;
    case 'dispatch-start':
      return `${event.taskId}: attempt ${event.attempt} · ${event.provider}${event.mode === 'helper' ? ' (helper)' : ''} · running`;
    case 'dispatch-end':
      return `${event.taskId}: attempt ${event.attempt} · ${event.provider}${event.mode === 'helper' ? ' (helper)' : ''} · ${event.outcome}${event.signal ? ` (${event.signal})` : ''}`;
    case 'breaker-skip':
      return `${event.taskId}: ${event.provider} skipped (breaker open${event.until ? ` until ${new Date(event.until).toISOString()}` : ''})`;
    case 'waiting':
      return `${event.taskId}: all providers open, waiting until ${new Date(event.untilMs).toISOString()}`;
    case 'claim-wait': {
      const until = new Date(event.untilMs).toISOString();
      return claimHolderState(event.holder) === 'gone'
        ? `${event.taskId}: claimed by ${event.holder}, a run that is no longer running (it crashed); taking other work, and this task when its lease lapses at ${until}`
        : `${event.taskId}: held by another live run (${event.holder}, lease until ${until}); taking other work, and this task if that run stops renewing its lease`;
    }
    case 'task-skip':
      return `· ${event.taskId} ${event.reason}`;
    case 'integration':
      return `${event.taskId}: attempt ${event.attempt} · ${event.ok ? 'integrated' : `not integrated: ${event.detail}`}`;
    case 'stale-agent-ended':
      return `${event.taskId}: attempt ${event.attempt}'s agent (process group ${event.pid}) was still running from the interrupted run; ended it with ${event.signal}${event.gone ? '' : ', but some of its processes did not exit'} before starting the next attempt`;
    case 'context':
      return `${event.taskId}: attempt ${event.attempt} · injected ${event.kind} context (${event.text.trimEnd().split('\n').length} lines)`;
    case 'validation':
      return `${event.taskId}: attempt ${event.attempt} · validation ${event.passed ? 'passed' : `failed (${event.errors.length})`}`;
    case 'notice':
      return `· ${event.message}`;
    case 'task-end':
      return `${event.status === 'completed' ? '✓' : '✗'} ${event.taskId} ${event.status}${event.reason ? `: ${event.reason}` : ''}`;
    default:
      return undefined;
  }
}
