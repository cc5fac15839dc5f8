import { createHash } from 'node:crypto';
import { fit } from '../budget/index.js';
import { isEmptyAgentSession } from '../ledger/light.js';
import { maskSecretsSync } from '../redact/index.js';
import { o200kCounter, truncateToTokens } from '../tokens/index.js';
import { clientLabel } from './client-specs.js';
import { nextStep } from './next-step.js';
import { cutOffCause, oneLine } from './session-summary.js';
import type { HookContextData } from './types.js';

/** The first line of every injected context: how a model (and a test) tells Baton's copies apart. */
export const CONTEXT_TITLE = '# Baton context for this workspace';

/**
 * How many items each section shows at the roomiest budget (the length of one line), and so how
 * many a session start reads; a smaller budget shows proportionally fewer, down to one of each.
 */
export const TOP = { sessions: 6, runs: 6, files: 40, failures: 6, tasks: 10, commits: 3, line: 400 } as const;
/** The smallest budget tried before the text is cut. */
const MIN_LINE = 60;
type Level = { -readonly [K in keyof typeof TOP]: number };

function levelAt(line: number): Level {
  const share = (n: number, least = 1) => Math.max(least, Math.round((n * line) / TOP.line));
  return {
    sessions: share(TOP.sessions),
    runs: share(TOP.runs),
    files: share(TOP.files, 5),
    failures: share(TOP.failures),
    tasks: share(TOP.tasks, 2),
    commits: share(TOP.commits, 0),
    line,
  };
}

/** A client's cap on injected context: characters, and o200k tokens when it cuts by tokens (Codex). */
export interface HookContextLimits {
  chars: number;
  tokens?: number;
}

/** A rendered context: the text to inject, and the digest of everything but its date line. */
export interface RenderedHookContext {
  text: string;
  digest: string;
  /** False when there is nothing to say (no session, run, task or change recorded yet). */
  hasContent: boolean;
}

/**
 * Renders the continuation context within the client's limits (fitted by budget/fit: characters,
 * and exact o200k tokens for a client that cuts by tokens): sessions (what they did, their last
 * request), runs, uncommitted files, failures, open tasks and blockers, and one next step. Times
 * are absolute (UTC, to the minute), so the same record renders to the same text later and an
 * unchanged context is recognised (`digest`) and not injected twice. Secrets are masked.
 */
export function renderHookContext(data: HookContextData, limits: HookContextLimits): RenderedHookContext {
  const told = { ...data, sessions: sessionsToTell(data) };
  const hasContent = told.sessions.length + data.runs.length + data.openTasks.length > 0 || Object.keys(data.git?.files ?? {}).length > 0;
  const header = `${CONTEXT_TITLE}\nRecorded by Baton, as of ${stamp(data.now)}. A newer Baton context replaces this one; where it and the files disagree, trust the files.\n\n${INTROS[data.source]}`;
  const fitted = fit(
    (line) => {
      const body = maskSecretsSync(renderBody(told, levelAt(line))).text;
      return { body, text: `${header}\n\n${body}` };
    },
    ({ text }) => ({ chars: text.length, tokens: limits.tokens === undefined ? 0 : o200kCounter.count(text) }),
    { caps: { chars: limits.chars, tokens: limits.tokens ?? Infinity }, budget: TOP.line, minBudget: MIN_LINE },
  );
  const { body } = fitted.candidate;
  let text = fitted.candidate.text;
  if (!fitted.fits) {
    text = `${text.slice(0, limits.chars - 20)}`;
    if (limits.tokens !== undefined) text = truncateToTokens(text, limits.tokens - 8);
    text = `${text}\n[cut to fit]`;
  }
  // The header (date, and the intro that names the source) is left out: the same record gives the same digest.
  return { text, digest: createHash('sha256').update(body).digest('hex').slice(0, 32), hasContent };
}

function renderBody(data: HookContextData, level: Level): string {
  const sections = [
    cutOffLine(data),
    section('Sessions in this workspace', sessionLines(data, level)),
    section('Runs (baton run)', runLines(data, level)),
    section(`Uncommitted changes${data.git?.branch ? ` (branch ${data.git.branch})` : ''}`, fileLines(data, level)),
    section(
      'Recent commits',
      data.commits.slice(0, level.commits).map((c) => `- ${c.sha} ${oneLine(c.subject, level.line)} (${stamp(c.at)})`),
    ),
    section('Last failures', failureLines(data, level)),
    section('Open tasks and blockers', taskLines(data, level)),
    section('Next step', [nextStep(data)]),
  ];
  return sections.filter(Boolean).join('\n\n');
}

const INTROS: Readonly<Record<HookContextData['source'], string>> = {
  compact:
    'The conversation was just compacted. Below is what Baton recorded of this session and this workspace, so work in flight is not lost.',
  resume: 'This session was resumed. Below is what Baton recorded in this workspace, this session included.',
  clear: 'The conversation was cleared. Below is what Baton recorded in this workspace.',
  startup: 'A new session. Below is what earlier sessions and runs did in this workspace.',
};

function section(title: string, lines: string[]): string {
  return lines.length === 0 ? '' : `## ${title}\n${lines.join('\n')}`;
}

function sessionLines(data: HookContextData, level: Level): string[] {
  return data.sessions.slice(0, level.sessions).flatMap((record) => {
    const current = record.id === data.sessionId ? 'this session; ' : '';
    const when =
      record.status === 'ended'
        ? `ended ${stamp(record.data.endedAt ?? record.updatedAt)}`
        : `last active ${stamp(record.data.lastActivityAt)}`;
    const lines = [`- ${oneLine(record.data.summary, level.line * 2)} (${current}${when})`];
    if (record.data.lastPrompt) lines.push(`  Last request: "${oneLine(record.data.lastPrompt, level.line)}"`);
    return lines;
  });
}

/**
 * The sessions worth telling this one about. On a startup or a resume the session's own history
 * holds what it did, so it is left out (and its new prompts do not make an unchanged context look
 * changed); after a compaction or a clear that history is gone, so it is told first.
 */
function sessionsToTell(data: HookContextData): HookContextData['sessions'] {
  const ownHistoryKept = data.source === 'startup' || data.source === 'resume';
  return data.sessions.filter((record) => !isEmptyAgentSession(record) && !(ownHistoryKept && record.id === data.sessionId));
}

/** Said first: the newest session's last turn was cut off (a usage limit), so its work may be half done. */
function cutOffLine(data: HookContextData): string {
  const newest = data.sessions[0];
  const cutOff = newest?.data.cutOff;
  if (!newest || !cutOff) return '';
  return `**The last turn was cut off by ${cutOffCause(cutOff.error)}** (${clientLabel(newest.data.client)} session ${newest.data.clientSessionId.slice(0, 8)}, ${stamp(cutOff.at)}): what it was doing may be half done.`;
}

function runLines(data: HookContextData, level: Level): string[] {
  return data.runs.slice(0, level.runs).map((dispatch) => {
    const task = data.tasks.get(dispatch.taskId);
    const title = task ? ` "${oneLine(task.title, 80)}"` : '';
    const outcome = dispatch.outcome && dispatch.outcome !== 'ok' ? ` (${dispatch.outcome})` : '';
    const files = [...dispatch.filesCreated, ...dispatch.filesUpdated];
    const result = dispatch.result ? `: ${oneLine(dispatch.result, level.line)}` : '';
    const touched = files.length > 0 ? `; files: ${files.slice(0, 5).join(', ')}${files.length > 5 ? ` (+${files.length - 5})` : ''}` : '';
    return `- ${dispatch.taskId}${title} attempt ${dispatch.attempt} via ${dispatch.provider} ${dispatch.status}${outcome} ${stamp(dispatch.finishedAt ?? dispatch.startedAt)}${result}${touched}`;
  });
}

function fileLines(data: HookContextData, level: Level): string[] {
  const status = data.git?.status ?? {};
  const files = Object.keys(status).sort();
  const describe = (xy: string) =>
    xy === '??' ? 'new, untracked' : xy.includes('D') ? 'deleted' : xy.startsWith('A') ? 'added' : 'changed';
  const lines = files.slice(0, level.files).map((file) => `- ${file} (${describe(status[file] ?? '')})`);
  if (files.length > level.files) lines.push(`- … and ${files.length - level.files} more`);
  return lines;
}

function failureLines(data: HookContextData, level: Level): string[] {
  const sessionFailures = data.sessions.flatMap(({ data: session }) =>
    session.failures.map((failure) => {
      const exit = failure.exitCode === undefined ? 'failed' : `exited ${failure.exitCode}`;
      const error = failure.error ? `: ${oneLine(failure.error, level.line)}` : '';
      const where = `${clientLabel(session.client)} session ${session.clientSessionId.slice(0, 8)}, ${stamp(failure.at)}`;
      return { at: failure.at, line: `- \`${oneLine(failure.command, level.line)}\` ${exit} (${where})${error}` };
    }),
  );
  const runFailures = data.runs
    .filter((dispatch) => dispatch.status === 'failed')
    .map((dispatch) => ({
      at: dispatch.finishedAt ?? dispatch.startedAt,
      line: `- run ${dispatch.taskId} attempt ${dispatch.attempt} failed (${dispatch.outcome ?? 'failed'}) ${stamp(dispatch.finishedAt ?? dispatch.startedAt)}: ${oneLine(dispatch.validationErrors[0] ?? dispatch.result ?? '', level.line)}`,
    }));
  return [...sessionFailures, ...runFailures]
    .sort((a, b) => b.at - a.at)
    .slice(0, level.failures)
    .map((entry) => entry.line);
}

function taskLines(data: HookContextData, level: Level): string[] {
  return data.openTasks.slice(0, level.tasks).map((task) => {
    const reason = task.status === 'blocked' && task.blockReason ? `: ${oneLine(task.blockReason, level.line)}` : '';
    return `- [${task.status}] ${task.id} "${oneLine(task.title, 100)}"${reason}`;
  });
}

/** UTC to the minute: `2026-11-26 16:08 UTC`. */
export function stamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
