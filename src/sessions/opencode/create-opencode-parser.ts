import { isRecord, parseJson, stringField } from '../is-record.js';
import { classifyEnding, SessionBuilder } from '../session-builder.js';
import type { ReadSessionOptions, SessionEnding, SessionParser } from '../types.js';

/** One row of OpenCode's database as the reader hands it over (`data` columns parsed or not). */
export type OpencodeRecord =
  | { table: 'session'; row: Record<string, unknown> }
  | { table: 'message'; id: string; data: unknown }
  | { table: 'part'; messageId: string; data: unknown };

/** Part types that carry nothing a session record keeps (steps, snapshots, patches, files). */
const QUIET_PARTS = new Set([
  'step-start',
  'step-finish',
  'snapshot',
  'patch',
  'file',
  'agent',
  'subtask',
  'retry',
  'reasoning',
  'compaction',
]);

/**
 * The parser of an OpenCode session (1.x, SQLite: `session`, `message` and `part` rows, fed in
 * order: the session, then each message followed by its parts). User text parts are prompts
 * (synthetic ones, which OpenCode adds itself, are not); assistant text parts are answers, or the
 * compaction summary on a `summary` message; tool parts are calls with their state (`completed`
 * with output and, for bash, `metadata.exit`; `error` with its error text). An assistant message's
 * `error` ends the session (APIError by its message and status: a usage limit or an error;
 * MessageAbortedError: interrupted); a later finished message ends it normally again. A `task`
 * call links the sub-agent session it started (`metadata.sessionId`).
 */
export function createOpencodeParser(source: string, limits: ReadSessionOptions = {}): SessionParser {
  const b = new SessionBuilder('opencode', source, limits);
  const roles = new Map<string, { role: string; summary: boolean; at: number | undefined }>();
  return {
    push(record) {
      if (!isRecord(record) || typeof record.table !== 'string') return b.skip();
      const r = record as OpencodeRecord;
      if (r.table === 'session' && isRecord(r.row)) return onSession(r.row);
      const data = parsed((r as { data?: unknown }).data);
      if (!data) return b.skip();
      if (r.table === 'message' && typeof r.id === 'string') return onMessage(r.id, data);
      if (r.table === 'part' && typeof r.messageId === 'string') return onPart(r.messageId, data);
      b.skip();
    },
    finish: () => b.finish(source.slice(source.lastIndexOf('#') + 1)),
  };

  function onSession(row: Record<string, unknown>): void {
    b.meta.id = stringField(row, 'id') ?? b.meta.id;
    b.meta.clientVersion = stringField(row, 'version') ?? b.meta.clientVersion;
    b.meta.cwd = stringField(row, 'directory') ?? b.meta.cwd;
    const title = stringField(row, 'title');
    if (title && !/^(New session|Child session) - /.test(title)) b.meta.title = title;
    const parent = stringField(row, 'parent_id');
    if (parent) b.meta.parentId = parent;
    const model = parsed(row.model);
    if (model) b.meta.model = modelName(stringField(model, 'providerID'), stringField(model, 'id')) ?? b.meta.model;
    b.seen(timeOf(row.time_created));
    b.seen(timeOf(row.time_updated));
  }

  function onMessage(id: string, d: Record<string, unknown>): void {
    const role = stringField(d, 'role') ?? 'unknown';
    const time = isRecord(d.time) ? d.time : {};
    roles.set(id, { role, summary: d.summary === true, at: timeOf(time.created) });
    b.seen(timeOf(time.created));
    b.seen(timeOf(time.completed));
    if (role !== 'assistant') return;
    b.meta.model = modelName(stringField(d, 'providerID'), stringField(d, 'modelID')) ?? b.meta.model;
    const where = isRecord(d.path) ? d.path : undefined;
    if (where) {
      b.meta.cwd ??= stringField(where, 'cwd');
      b.meta.gitRoot ??= stringField(where, 'root');
    }
    if (isRecord(d.error)) {
      const { ending, message } = endingOf(d.error);
      b.ending = ending;
      b.endingMessage = message;
    } else if (typeof d.finish === 'string' || timeOf(time.completed) !== undefined) {
      b.ending = 'normal';
      b.endingMessage = undefined;
    }
  }

  function onPart(messageId: string, d: Record<string, unknown>): void {
    const type = stringField(d, 'type') ?? '';
    const message = roles.get(messageId);
    const time = isRecord(d.time) ? d.time : {};
    const at = timeOf(time.start) ?? message?.at;
    if (type === 'text') {
      const text = stringField(d, 'text') ?? '';
      if (d.synthetic === true || d.ignored === true) return;
      if (message?.role === 'user') b.text('user', text, at);
      else if (message?.summary) b.text('compaction', text, at);
      else b.text('assistant', text, at);
      return;
    }
    if (type === 'tool') return onTool(d);
    if (!QUIET_PARTS.has(type)) b.skip();
  }

  function onTool(d: Record<string, unknown>): void {
    const id = stringField(d, 'callID');
    const state = isRecord(d.state) ? d.state : {};
    const time = isRecord(state.time) ? state.time : {};
    b.call(id, stringField(d, 'tool') ?? 'unknown', state.input ?? {}, timeOf(time.start));
    if (id === undefined) return;
    const metadata = isRecord(state.metadata) ? state.metadata : {};
    const child = stringField(metadata, 'sessionId');
    if (child) b.link({ id: child, parentCallId: id });
    const end = timeOf(time.end);
    if (state.status === 'completed') {
      const exit = typeof metadata.exit === 'number' ? { exitCode: metadata.exit } : {};
      b.result(id, { output: stringField(state, 'output') ?? '', ...exit }, end);
    } else if (state.status === 'error') {
      b.result(id, { output: stringField(state, 'error') ?? 'error', failed: true }, end);
    }
  }
}

/** How an assistant message's error ended the session, and its words. */
function endingOf(error: Record<string, unknown>): { ending: SessionEnding; message: string | undefined } {
  const name = stringField(error, 'name') ?? '';
  const data = isRecord(error.data) ? error.data : {};
  const message = stringField(data, 'message') ?? (name || undefined);
  if (name === 'MessageAbortedError') return { ending: 'interrupted', message };
  const status = typeof data.statusCode === 'number' ? data.statusCode : undefined;
  const code = status === 429 || status === 402 ? 'rate_limit' : undefined;
  return { ending: classifyEnding(message ?? name, code), message };
}

function modelName(provider: string | undefined, model: string | undefined): string | undefined {
  if (!model) return undefined;
  return provider ? `${provider}/${model}` : model;
}

/** A `data` column: a JSON object, as text or already parsed. */
function parsed(value: unknown): Record<string, unknown> | undefined {
  const v = typeof value === 'string' ? parseJson(value) : value;
  return isRecord(v) ? v : undefined;
}

function timeOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
