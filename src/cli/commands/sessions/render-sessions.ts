import type { AgentSessionRecord } from '../../../ledger/index.js';
import { supervisedLink } from '../../../prompt/light.js';
import type { ImportSessionsResult } from '../../../sessions/index.js';

/**
 * One line of `baton sessions`: client, id, start/end, how it ended, prompts, calls, files, source,
 * and `supervised`: null, or the task and try (`attempt`; null when unknown) of a try `baton run` ran.
 */
export function sessionRow(record: AgentSessionRecord) {
  const d = record.data;
  return {
    id: record.id,
    client: d.client,
    sessionId: d.clientSessionId,
    startedAt: new Date(d.startedAt).toISOString(),
    endedAt: d.endedAt === undefined ? null : new Date(d.endedAt).toISOString(),
    status: record.status ?? 'ended',
    ending: d.transcript?.ending ?? d.endReason ?? null,
    prompts: d.transcript?.prompts ?? d.turns,
    calls: d.toolCalls,
    files: [...d.filesCreated, ...d.filesUpdated, ...d.filesDeleted].length,
    source: d.origin === 'import' ? 'import' : d.transcript ? 'hooks+import' : 'hooks',
    supervised: supervisedRow(record),
    ...(d.model === undefined ? {} : { model: d.model }),
  };
}

export function renderSessionList(workspace: string, sessions: readonly AgentSessionRecord[]): string {
  if (sessions.length === 0) return `No agent sessions found for ${workspace}.`;
  const lines = [`Agent sessions of ${workspace} (newest first):`];
  for (const record of sessions) {
    const r = sessionRow(record);
    const span = `${r.startedAt.slice(0, 16).replace('T', ' ')} → ${r.endedAt ? r.endedAt.slice(11, 16) : 'now'}`;
    lines.push(
      `  ${r.client.padEnd(7)} ${r.sessionId.slice(0, 8)}  ${span}  ${String(r.ending ?? r.status).padEnd(11)} ${r.prompts} prompts, ${r.calls} calls, ${r.files} files  [${r.source}]` +
        (r.supervised ? `  supervised: ${describeTry(r.supervised)}` : ''),
    );
  }
  return lines.join('\n');
}

export function renderSession(record: AgentSessionRecord): string {
  const d = record.data;
  const r = sessionRow(record);
  const lines = [
    `${r.client} session ${d.clientSessionId} (${record.id})`,
    `  ${r.startedAt} → ${r.endedAt ?? 'active'}; ended: ${r.ending ?? r.status}${d.transcript?.endingMessage ? ` — ${d.transcript.endingMessage}` : ''}`,
    `  ${r.prompts} prompts, ${r.calls} tool calls; source: ${r.source}${d.model ? `; model ${d.model}` : ''}`,
  ];
  if (r.supervised) lines.push(`  Supervised: ${describeTry(r.supervised)} of baton run (that attempt records its files and outcome)`);
  if (d.transcript?.task) lines.push(`  Task: ${oneLine(d.transcript.task)}`);
  if (d.lastPrompt) lines.push(`  Last request: ${oneLine(d.lastPrompt)}`);
  const files = [...d.filesCreated, ...d.filesUpdated, ...d.filesDeleted];
  if (files.length > 0) lines.push(`  Files: ${files.join(', ')}`);
  for (const f of d.failures.slice(-3))
    lines.push(
      `  Failed: ${oneLine(f.command)}${f.exitCode === undefined ? '' : ` (exit ${f.exitCode})`}${f.error ? `: ${oneLine(f.error)}` : ''}`,
    );
  for (const item of d.transcript?.openPlan ?? []) lines.push(`  Open: ${oneLine(item)}`);
  if (d.transcript)
    lines.push(`  Transcript: ${d.transcript.file}${d.transcript.skipped ? ` (${d.transcript.skipped} unreadable lines skipped)` : ''}`);
  return lines.join('\n');
}

export function renderImport(workspace: string, r: ImportSessionsResult): string {
  const speed = r.ms > 0 && r.bytes > 0 ? `, ${(r.bytes / 1e6 / (r.ms / 1000)).toFixed(1)} MB/s` : '';
  return (
    `Imported ${r.imported} session file(s) of ${workspace} (${r.unchanged} unchanged, ${r.foreign} of other workspaces skipped, ` +
    `${r.skippedLines} unreadable lines skipped) in ${r.ms} ms${speed}.`
  );
}

function supervisedRow(record: AgentSessionRecord): { taskId: string | null; attempt: number | null } | null {
  const link = supervisedLink(record);
  return link ? { taskId: link.taskId ?? null, attempt: link.attempt ?? null } : null;
}

function describeTry(link: { taskId: string | null; attempt: number | null }): string {
  return `${link.taskId === null ? 'a task' : `task ${link.taskId}`}${link.attempt === null ? '' : ` try ${link.attempt}`}`;
}

function oneLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
