import { isRecord, parseTime, stringField } from '../is-record.js';
import { SessionBuilder } from '../session-builder.js';
import type { ReadSessionOptions, SessionParser } from '../types.js';

/** Record types Claude Code writes that carry nothing a session needs (not counted as skipped). */
const IGNORED = new Set([
  'file-history-snapshot',
  'queue-operation',
  'permission-mode',
  'attachment',
  'last-prompt',
  'agent-name',
  'pr-link',
  'tag',
]);

/**
 * The parser of a Claude Code transcript (~/.claude/projects/<project>/<session>.jsonl, versions
 * 1.0 to 2.1): user prompts (IDE context and reminders removed), replies, tool calls with their
 * results (`is_error` kept; `Exit code N` read), compaction summaries, the title, an API error or
 * usage limit that ended it, and sub-agents linked: a 2.x sub-agent's own file
 * (`<session>/subagents/agent-<id>.jsonl`) through its agent id, a 1.0 inline sidechain through its
 * first line. Sidechain lines inside a main transcript belong to the sub-agent, not to the session;
 * a sub-agent's own file parses as that sub-agent's session (`parentId` set).
 */
export function createClaudeParser(source: string, limits: ReadSessionOptions = {}): SessionParser {
  const b = new SessionBuilder('claude', source, limits);
  let subagentFile: boolean | undefined;
  let openTaskCall: string | undefined;

  const sidechain = (o: Record<string, unknown>): boolean => {
    if (o.isSidechain !== true || subagentFile === true) return false;
    // A 1.0 inline sidechain: its first line starts a sub-agent, started by the open Task call.
    const uuid = stringField(o, 'uuid');
    if (o.parentUuid === null && uuid)
      b.link({ id: `${stringField(o, 'sessionId') ?? ''}/${uuid}`, source, ...(openTaskCall ? { parentCallId: openTaskCall } : {}) });
    return true;
  };

  return {
    push(o) {
      if (!isRecord(o) || typeof o.type !== 'string') return b.skip();
      if (o.type === 'user' || o.type === 'assistant') {
        subagentFile ??= o.isSidechain === true && typeof o.agentId === 'string';
        if (subagentFile && typeof o.agentId === 'string') {
          b.meta.id = o.agentId;
          b.meta.parentId ??= stringField(o, 'sessionId');
        }
      }
      if (sidechain(o)) return;
      b.meta.id ??= stringField(o, 'sessionId');
      b.meta.cwd ??= stringField(o, 'cwd');
      b.meta.clientVersion = stringField(o, 'version') || b.meta.clientVersion;
      const at = b.seen(parseTime(o.timestamp));
      switch (o.type) {
        case 'user':
          return onUser(o, at);
        case 'assistant':
          return onAssistant(o, at);
        case 'summary':
        case 'ai-title':
        case 'custom-title':
          b.meta.title = stringField(o, 'customTitle') ?? stringField(o, 'aiTitle') ?? stringField(o, 'summary') ?? b.meta.title;
          return;
        case 'progress':
          return onProgress(o);
        case 'system':
          return onSystem(o);
        default:
          if (!IGNORED.has(o.type)) b.skip();
      }
    },
    finish() {
      if (b.ending === 'normal' && b.lastEvent()?.type === 'user') b.ending = 'unknown';
      return b.finish(source);
    },
  };

  function onUser(o: Record<string, unknown>, at: number | undefined): void {
    const message = isRecord(o.message) ? o.message : undefined;
    if (!message) return b.skip();
    if (o.isCompactSummary === true) return b.text('compaction', blockText(message.content), at);
    if (o.isMeta === true) return;
    const content = message.content;
    if (typeof content === 'string') return prompt(content, at);
    if (!Array.isArray(content)) return b.skip();
    for (const block of content as unknown[]) {
      if (!isRecord(block)) continue;
      if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') result(block, o.toolUseResult, at);
      else if (block.type === 'text' && typeof block.text === 'string') prompt(block.text, at);
    }
  }

  function prompt(text: string, at: number | undefined): void {
    if (INTERRUPT_MARKER.test(text.trim())) {
      b.ending = 'interrupted';
      return;
    }
    const clean = claudePromptText(text);
    if (clean.length === 0) return;
    b.text('user', clean, at);
    b.ending = 'normal';
  }

  function result(block: Record<string, unknown>, structured: unknown, at: number | undefined): void {
    const id = block.tool_use_id as string;
    b.result(id, { output: blockText(block.content), failed: block.is_error === true }, at);
    if (id === openTaskCall) openTaskCall = undefined;
    if (isRecord(structured) && typeof structured.agentId === 'string') b.link({ id: structured.agentId, parentCallId: id });
  }

  function onAssistant(o: Record<string, unknown>, at: number | undefined): void {
    const message = isRecord(o.message) ? o.message : undefined;
    if (!message) return b.skip();
    const model = stringField(message, 'model');
    if (model && model !== '<synthetic>') b.meta.model = model;
    if (o.isApiErrorMessage === true || typeof o.error === 'string') {
      const text = blockText(message.content);
      return b.fail(text, stringField(o, 'error'), text.trim() || stringField(o, 'error'));
    }
    const content = Array.isArray(message.content) ? (message.content as unknown[]) : [];
    for (const block of content) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') b.text('assistant', block.text, at);
      else if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
        b.call(block.id, block.name, block.input ?? {}, at);
        if (block.name === 'Task' || block.name === 'Agent') openTaskCall = block.id;
      }
    }
    b.ending = 'normal';
  }

  function onProgress(o: Record<string, unknown>): void {
    const data = isRecord(o.data) ? o.data : undefined;
    const parent = stringField(o, 'parentToolUseID');
    if (data?.type === 'agent_progress' && typeof data.agentId === 'string') {
      b.link({ id: data.agentId, ...(parent ? { parentCallId: parent } : {}) });
    }
  }

  function onSystem(o: Record<string, unknown>): void {
    if (o.subtype === 'api_error' || o.level === 'error') {
      b.fail(stringField(o, 'content') ?? (isRecord(o.error) ? JSON.stringify(o.error) : 'API error'));
    }
  }
}

/** What Claude Code wraps around a prompt that the user did not type (IDE context, reminders). */
const INJECTED =
  /<(ide_opened_file|ide_selection|system-reminder|local-command-caveat|local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>[\s\S]*?<\/\1>/g;
const COMMAND = /<command-name>([\s\S]*?)<\/command-name>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
const BASH_INPUT = /<bash-input>([\s\S]*?)<\/bash-input>/;

/** The marker Claude Code writes as a user message when the user stops a turn. */
const INTERRUPT_MARKER = /^\[Request interrupted by user/;

/**
 * The prompt the user typed, from a Claude Code user text: IDE context and reminders removed, a
 * slash command as `/name args`, a `!` shell line as `! command`. Empty when nothing is left. Pure.
 */
function claudePromptText(text: string): string {
  const command = COMMAND.exec(text);
  if (command) {
    const name = (command[1] ?? '').trim();
    const args = (COMMAND_ARGS.exec(text)?.[1] ?? '').trim();
    return `${name.startsWith('/') ? name : `/${name}`}${args ? ` ${args}` : ''}`;
  }
  const bash = BASH_INPUT.exec(text);
  if (bash) return `! ${(bash[1] ?? '').trim()}`;
  return text.replace(INJECTED, '').trim();
}

/** The text of a message's content: a string, or the text blocks of a block array joined. */
function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content as unknown[]) {
    if (typeof block === 'string') parts.push(block);
    else if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
    else if (isRecord(block) && block.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}
