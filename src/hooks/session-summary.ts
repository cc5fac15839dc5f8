import type { AgentSessionData } from '../ledger/index.js';
import { clientLabel } from './client-specs.js';

/** Files named in a summary before "+N more". */
const SUMMARY_FILES = 5;

/**
 * The session's summary, from its data alone (no clock, no model): the same data gives the same
 * words. E.g. "Claude Code session 1406097c: 2 turns, 5 tool calls; created hello.txt; changed
 * src/a.ts; 1 failed command (last: `ls /x`, exit 2); ended (other)."
 */
export function summarizeSession(data: AgentSessionData, status: 'active' | 'ended'): string {
  const parts = [
    `${clientLabel(data.client)} session ${data.clientSessionId.slice(0, 8)}: ${count(data.turns, 'turn')}, ${count(data.toolCalls, 'tool call')}`,
  ];
  if (data.compactions > 0) parts[0] += `, ${count(data.compactions, 'compaction')}`;
  if (data.filesCreated.length > 0) parts.push(`created ${fileList(data.filesCreated)}`);
  if (data.filesUpdated.length > 0) parts.push(`changed ${fileList(data.filesUpdated)}`);
  if (data.filesDeleted.length > 0) parts.push(`deleted ${fileList(data.filesDeleted)}`);
  if (data.filesCreated.length + data.filesUpdated.length + data.filesDeleted.length === 0) parts.push('no files changed');
  const last = data.failures[data.failures.length - 1];
  if (last) {
    const exit = last.exitCode === undefined ? '' : `, exit ${last.exitCode}`;
    parts.push(`${count(data.failures.length, 'failed command')} (last: \`${oneLine(last.command, 80)}\`${exit})`);
  }
  parts.push(status === 'ended' ? `ended${data.endReason ? ` (${data.endReason})` : ''}` : 'active');
  return `${parts.join('; ')}.`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function fileList(files: readonly string[]): string {
  const shown = files.slice(0, SUMMARY_FILES).join(', ');
  return files.length > SUMMARY_FILES ? `${shown} (+${files.length - SUMMARY_FILES} more)` : shown;
}

/** What cut a turn off, in words: `rate_limit` is a usage limit. */
export function cutOffCause(error: string): string {
  return error === 'rate_limit' ? 'a usage limit' : `an API error (${error})`;
}

/** A session's end reason when its last turn was cut off: `usage limit`, else `api error (…)`. */
export function cutOffEndReason(error: string): string {
  return error === 'rate_limit' ? 'usage limit' : `api error (${error})`;
}

/** First line of a text, cut to `max` characters. */
export function oneLine(text: string, max: number): string {
  const line = text.split('\n', 1)[0]?.trim() ?? '';
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
