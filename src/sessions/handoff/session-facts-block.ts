import { normalizeWhitespace } from '../../loop/index.js';
import { editedFiles, sessionOpenPlan } from '../session-record-data.js';
import type { AgentSession, PlanItem, SessionToolCall } from '../types.js';

/** Characters of a request kept in the handoff's header. */
const REQUEST_CHARS = 400;
/** Characters of one action or error line. */
const LINE_CHARS = 200;
const MAX_FILES = 40;
const MAX_PLAN = 15;
/** The header's last actions. */
export const LAST_ACTIONS = 3;

/** What the handoff's header says of the session: from the whole session, or from its ledger record and a window of it. */
export interface HandoffFacts {
  id: string;
  model?: string;
  ending: AgentSession['ending'];
  endingMessage?: string;
  /** The first request. */
  task?: string;
  /** The newest request, when the session had more than one. */
  newestRequest?: string;
  /** The files it edited, oldest first. */
  files: string[];
  failure?: { what: string; exitCode?: number; line?: string };
  /** The open plan items. */
  plan: PlanItem[];
  /** The last actions, oldest first. */
  lastActions: SessionToolCall[];
}

/** The header's facts read from the whole session. Pure. */
export function sessionFacts(session: AgentSession): HandoffFacts {
  const calls = session.events.flatMap((e) => (e.type === 'tool' ? [e.call] : []));
  const requests = session.events.flatMap((e) => (e.type === 'user' ? [e.text] : []));
  const failed = [...calls].reverse().find((c) => c.failed);
  return {
    id: session.id,
    ...(session.model ? { model: session.model } : {}),
    ending: session.ending,
    ...(session.endingMessage ? { endingMessage: session.endingMessage } : {}),
    ...(requests[0] === undefined ? {} : { task: requests[0] }),
    ...(requests.length > 1 ? { newestRequest: requests.at(-1) } : {}),
    files: editedFiles(calls),
    ...(failed ? { failure: failureOf(failed) } : {}),
    plan: sessionOpenPlan(calls),
    lastActions: calls.slice(-LAST_ACTIONS),
  };
}

/** A failed call as the header's newest failure. */
export function failureOf(call: SessionToolCall): NonNullable<HandoffFacts['failure']> {
  return {
    what: call.key ?? call.name,
    ...(call.exitCode === undefined ? {} : { exitCode: call.exitCode }),
    ...(call.failureLine ? { line: call.failureLine } : {}),
  };
}

/**
 * The handoff's header: what the next agent must not lose — the task (first request), the newest
 * request, how the session ended (a usage limit said first), the files it edited, the newest
 * failure, the last actions with their results' first and last lines and the open plan items.
 * Markdown, deterministic. Pure.
 */
export function sessionFactsBlock(facts: HandoffFacts, label: string): string {
  const lines = [`## ${label} session ${facts.id.slice(0, 8)}${facts.model ? ` (${facts.model})` : ''}`];
  const ending = endingLine(facts);
  if (ending) lines.push(ending);
  if (facts.task !== undefined) lines.push(`Task: ${clip(facts.task, REQUEST_CHARS)}`);
  if (facts.newestRequest !== undefined) lines.push(`Newest request: ${clip(facts.newestRequest, REQUEST_CHARS)}`);
  const { files, failure, plan } = facts;
  if (files.length > 0)
    lines.push(
      `Files edited: ${files.slice(-MAX_FILES).join(', ')}${files.length > MAX_FILES ? ` (+${files.length - MAX_FILES} earlier)` : ''}`,
    );
  if (failure)
    lines.push(
      `Newest failure: ${clip(failure.what, LINE_CHARS)}${failure.exitCode === undefined ? '' : ` (exit ${failure.exitCode})`}${failure.line ? ` — ${clip(failure.line, LINE_CHARS)}` : ''}`,
    );
  if (plan.length > 0)
    lines.push(
      'Open plan items:',
      ...plan.slice(0, MAX_PLAN).map((i) => `- [${i.status === 'in_progress' ? '~' : ' '}] ${clip(i.text, LINE_CHARS)}`),
    );
  if (facts.lastActions.length > 0) lines.push('Last actions:', ...facts.lastActions.map(actionLine));
  return lines.join('\n');
}

function endingLine(session: Pick<HandoffFacts, 'ending' | 'endingMessage'>): string | undefined {
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

function clip(text: string, max: number): string {
  const flat = normalizeWhitespace(text);
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
