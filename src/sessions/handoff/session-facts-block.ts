import { normalizeWhitespace } from '../../loop/index.js';
import { sessionOpenPlan } from '../session-open-plan.js';
import type { AgentSession, SessionToolCall } from '../types.js';

/** Characters of a request kept in the handoff's header. */
const REQUEST_CHARS = 400;
/** Characters of one action or error line. */
const LINE_CHARS = 200;
const MAX_FILES = 40;
const MAX_PLAN = 15;
const LAST_ACTIONS = 3;

/**
 * The handoff's header: what the next agent must not lose, read from the session itself — the
 * task (first request), the newest request, how the session ended (a usage limit said first), the
 * files it edited, the newest failure, the last actions with their results' first and last lines
 * and the open plan items. Markdown, deterministic. Pure.
 */
export function sessionFactsBlock(session: AgentSession, label: string): string {
  const calls = session.events.flatMap((e) => (e.type === 'tool' ? [e.call] : []));
  const requests = session.events.flatMap((e) => (e.type === 'user' ? [e.text] : []));
  const lines = [`## ${label} session ${session.id.slice(0, 8)}${session.model ? ` (${session.model})` : ''}`];
  const ending = endingLine(session);
  if (ending) lines.push(ending);
  if (requests[0] !== undefined) lines.push(`Task: ${clip(requests[0], REQUEST_CHARS)}`);
  if (requests.length > 1) lines.push(`Newest request: ${clip(requests.at(-1) as string, REQUEST_CHARS)}`);
  const files = editedFiles(calls);
  if (files.length > 0)
    lines.push(
      `Files edited: ${files.slice(-MAX_FILES).join(', ')}${files.length > MAX_FILES ? ` (+${files.length - MAX_FILES} earlier)` : ''}`,
    );
  const failed = [...calls].reverse().find((c) => c.failed);
  if (failed)
    lines.push(
      `Newest failure: ${clip(failed.key ?? failed.name, LINE_CHARS)}${failed.exitCode === undefined ? '' : ` (exit ${failed.exitCode})`}${failed.failureLine ? ` — ${clip(failed.failureLine, LINE_CHARS)}` : ''}`,
    );
  const plan = sessionOpenPlan(calls);
  if (plan.length > 0)
    lines.push(
      'Open plan items:',
      ...plan.slice(0, MAX_PLAN).map((i) => `- [${i.status === 'in_progress' ? '~' : ' '}] ${clip(i.text, LINE_CHARS)}`),
    );
  const last = calls.slice(-LAST_ACTIONS);
  if (last.length > 0) lines.push('Last actions:', ...last.map(actionLine));
  return lines.join('\n');
}

function endingLine(session: AgentSession): string | undefined {
  const why = session.endingMessage ? ` (${clip(session.endingMessage, LINE_CHARS)})` : '';
  if (session.ending === 'usage_limit') return `The last turn was cut off by a usage limit${why}: continue where it stopped.`;
  if (session.ending === 'error') return `The session ended with an error${why}.`;
  if (session.ending === 'interrupted') return 'The session was interrupted by the user.';
  return undefined;
}

function actionLine(call: SessionToolCall): string {
  const lines = (call.output ?? '').split('\n').filter((l) => l.trim().length > 0);
  const result =
    lines.length === 0
      ? ''
      : lines.length === 1
        ? ` → ${clip(lines[0] as string, LINE_CHARS)}`
        : ` → ${clip(lines[0] as string, LINE_CHARS)} … ${clip(lines.at(-1) as string, LINE_CHARS)}`;
  const status = call.failed ? ` [failed${call.exitCode === undefined ? '' : `, exit ${call.exitCode}`}]` : '';
  return `- ${call.name}: ${clip(call.key ?? '', LINE_CHARS)}${status}${result}`;
}

function editedFiles(calls: readonly SessionToolCall[]): string[] {
  const out = new Set<string>();
  for (const c of calls) if (!c.failed && (c.kind === 'edit' || c.kind === 'write')) for (const p of c.paths) out.add(p);
  return [...out];
}

function clip(text: string, max: number): string {
  const flat = normalizeWhitespace(text);
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
