import { isRecord, parseJson, parseTime, partsText, stringField } from '../is-record.js';
import { type RawToolResult, SessionBuilder } from '../session-builder.js';
import type { ReadSessionOptions, SessionParser } from '../types.js';

/** What Codex puts in a user message that the user did not type. */
const INJECTED_USER =
  /^\s*(?:# AGENTS\.md instructions|<(?:environment_context|user_instructions|permissions instructions|user_action|turn_aborted|user_shell_command)\b)/;
/** Record types with nothing a session needs (not counted as skipped). */
const IGNORED = new Set(['reasoning', 'ghost_snapshot', 'web_search_call']);
const IGNORED_EVENTS = new Set([
  'token_count',
  'agent_reasoning',
  'agent_message',
  'agent_reasoning_raw_content',
  'entered_review_mode',
  'exited_review_mode',
  'task_started',
  'task_complete',
  'turn_diff',
  'exec_command_begin',
  'exec_command_end',
  'patch_apply_begin',
  'patch_apply_end',
  'mcp_tool_call_begin',
  'mcp_tool_call_end',
  'context_compacted',
  'item_completed',
  'undo_completed',
  'thread_rolled_back',
]);

/**
 * The parser of a Codex CLI rollout (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl, 0.3x to 0.17x):
 * the session's id, cwd, version and git root from `session_meta`, the model from `turn_context`,
 * the prompts the user typed (`user_message` events, or user messages without Codex's injected
 * context; never both), replies, every call of the three shell generations (`shell` argv arrays,
 * `shell_command`, `exec_command`/`write_stdin`), `apply_patch` (custom tool or through shell),
 * `local_shell_call` and any function tool, each with its result and exit code, compactions, and
 * an error, usage limit or abort that ended it.
 */
export function createCodexParser(source: string, limits: ReadSessionOptions = {}): SessionParser {
  const b = new SessionBuilder('codex', source, limits);
  // Codex records each prompt twice (a user message item and a user_message event): the second
  // copy is dropped when nothing came between them; the same words typed again later are kept.
  let lastUser: { from: 'item' | 'event'; event: unknown } | undefined;

  const user = (text: string, at: number | undefined, from: 'item' | 'event') => {
    const clean = text.trim();
    if (clean.length === 0 || INJECTED_USER.test(clean)) return;
    const last = b.lastEvent();
    if (lastUser && lastUser.from !== from && last === lastUser.event && last?.type === 'user' && last.text === clean) return;
    b.text('user', clean, at);
    lastUser = { from, event: b.lastEvent() };
    b.ending = 'normal';
  };

  return {
    push(record) {
      if (!isRecord(record) || typeof record.type !== 'string' || !isRecord(record.payload)) return b.skip();
      const p = record.payload;
      const at = b.seen(parseTime(record.timestamp));
      switch (record.type) {
        case 'session_meta':
          return onMeta(p);
        case 'turn_context':
          b.meta.model = stringField(p, 'model') ?? b.meta.model;
          b.meta.cwd ??= stringField(p, 'cwd');
          return;
        case 'response_item':
          return onItem(p, at);
        case 'event_msg':
          return onEvent(p, at);
        case 'compacted':
          b.text('compaction', stringField(p, 'message') ?? '', at);
          return;
        default:
          b.skip();
      }
    },
    finish: () => b.finish(source),
  };

  function onMeta(p: Record<string, unknown>): void {
    b.meta.id ??= stringField(p, 'id');
    b.meta.cwd ??= stringField(p, 'cwd');
    b.meta.clientVersion = stringField(p, 'cli_version') || b.meta.clientVersion;
    b.seen(parseTime(p.timestamp));
    const origin = isRecord(p.source) && isRecord(p.source.subagent) ? p.source.subagent : undefined;
    const parent = origin && isRecord(origin.thread_spawn) ? stringField(origin.thread_spawn, 'parent_thread_id') : undefined;
    if (parent) b.meta.parentId = parent;
  }

  function onItem(p: Record<string, unknown>, at: number | undefined): void {
    const callId = stringField(p, 'call_id') ?? stringField(p, 'id');
    switch (p.type) {
      case 'message':
        if (p.role === 'user') return user(partsText(p.content), at, 'item');
        if (p.role === 'assistant') {
          b.text('assistant', partsText(p.content), at);
          b.ending = 'normal';
        }
        return;
      case 'function_call':
        b.call(callId, stringField(p, 'name') ?? 'unknown', parseArguments(p.arguments), at);
        return;
      case 'custom_tool_call':
        b.call(callId, stringField(p, 'name') ?? 'unknown', p.input ?? '', at);
        return;
      case 'local_shell_call':
        b.call(callId, 'local_shell', p.action ?? {}, at);
        return;
      case 'function_call_output':
      case 'custom_tool_call_output':
        if (callId) b.result(callId, readCodexOutput(p.output), at);
        return;
      default:
        if (typeof p.type !== 'string' || !IGNORED.has(p.type)) b.skip();
    }
  }

  function onEvent(p: Record<string, unknown>, at: number | undefined): void {
    const type = stringField(p, 'type') ?? '';
    if (type === 'user_message') return user(stringField(p, 'message') ?? '', at, 'event');
    if (type === 'turn_aborted') {
      b.ending = 'interrupted';
      return;
    }
    if (type === 'error' || type === 'stream_error') return b.fail(stringField(p, 'message') ?? type, stringField(p, 'codex_error_info'));
    if (!IGNORED_EVENTS.has(type)) b.skip();
  }
}

function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  const parsed = parseJson(args);
  return parsed === undefined ? args : parsed;
}

/** Header lines Codex puts above a command's output (shell_command, exec_command, write_stdin). */
const HEADER_LINE =
  /^(?:Chunk ID|Wall time|Process exited with code|Process running with session ID|Original token count|Exit code|Total output lines)\b/;
const EXIT = /^(?:Exit code:|Process exited with code)\s*(-?\d+)/m;
/** How Codex words a call it could not run (its tool layer, not the command). */
const TOOL_ERROR = /^(?:apply_patch verification failed|execution error|error:|failed in sandbox|aborted)/i;

/**
 * A Codex call's result, from the three output forms its generations wrote: a JSON string
 * `{output, metadata: {exit_code}}` (shell, apply_patch), a text with a header (`Exit code: N` /
 * `Process exited with code N` … `Output:`; shell_command, exec_command, write_stdin), or an object
 * `{content, success}`. The header is removed from the output once its exit code is read. Pure.
 */
function readCodexOutput(raw: unknown): RawToolResult {
  if (isRecord(raw)) {
    const content = typeof raw.content === 'string' ? raw.content : JSON.stringify(raw.content ?? '');
    return { output: content, ...(raw.success === false ? { failed: true } : {}) };
  }
  const text = typeof raw === 'string' ? raw : '';
  const json = text.startsWith('{') ? parseJson(text) : undefined;
  if (isRecord(json) && typeof json.output === 'string') {
    const exit = isRecord(json.metadata) && typeof json.metadata.exit_code === 'number' ? json.metadata.exit_code : undefined;
    return {
      output: json.output,
      ...(exit === undefined ? {} : { exitCode: exit }),
      ...(TOOL_ERROR.test(json.output.trimStart()) ? { failed: true } : {}),
    };
  }
  const { header, body } = splitHeader(text);
  const exit = EXIT.exec(header)?.[1];
  if (exit !== undefined) return { output: body, exitCode: Number(exit) };
  return { output: body, ...(TOOL_ERROR.test(body.trimStart()) ? { failed: true } : {}) };
}

function splitHeader(text: string): { header: string; body: string } {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && HEADER_LINE.test(lines[i] ?? '')) i += 1;
  if (i === 0) return { header: '', body: text };
  const header = lines.slice(0, i).join('\n');
  return { header, body: lines.slice(lines[i] === 'Output:' ? i + 1 : i).join('\n') };
}
