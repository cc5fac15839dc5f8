import type { AgentClient, AgentSessionSource, HookEvent, HookInput } from './types.js';

const SOURCES: readonly string[] = ['startup', 'resume', 'clear', 'compact'];

/**
 * Reads a hook's stdin JSON into HookInput. The three clients share most field names (session_id,
 * cwd, transcript_path, tool_name, tool_input, tool_response); the differences are mapped here:
 * Claude's PostToolUseFailure (`error`) and StopFailure (`error`), Gemini's AfterAgent (`prompt_response`), Stop's
 * `last_assistant_message`. Throws a plain Error naming what is missing; the caller logs it.
 */
export function parseHookInput(client: AgentClient, event: HookEvent, text: string, fallbackCwd: string): HookInput {
  const raw = text.trim() === '' ? {} : (JSON.parse(text) as unknown);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('hook input is not a JSON object');
  const json = raw as Record<string, unknown>;
  const sessionId = str(json.session_id) ?? str(json.sessionId) ?? str(json.thread_id);
  if (!sessionId) throw new Error('hook input has no session_id');
  const input: HookInput = { client, event, sessionId, cwd: str(json.cwd) ?? fallbackCwd };
  const source = str(json.source);
  if (source && SOURCES.includes(source)) input.source = source as AgentSessionSource;
  const trigger = str(json.trigger);
  if (trigger === 'manual' || trigger === 'auto') input.trigger = trigger;
  assign(input, 'transcriptPath', str(json.transcript_path));
  assign(input, 'model', str(json.model));
  assign(input, 'prompt', userPrompt(str(json.prompt)));
  assign(input, 'reply', str(json.last_assistant_message) ?? str(json.prompt_response));
  assign(input, 'reason', str(json.reason));
  assign(input, 'toolName', str(json.tool_name));
  assign(input, 'toolUseId', str(json.tool_use_id));
  if (isRecord(json.tool_input)) input.toolInput = json.tool_input;
  if (json.tool_response !== undefined) input.toolResponse = json.tool_response;
  if (str(json.hook_event_name) === 'PostToolUseFailure') {
    input.toolFailed = true;
    assign(input, 'toolError', str(json.error) ?? 'failed');
  }
  if (str(json.hook_event_name) === 'StopFailure') input.stopError = str(json.error) ?? 'unknown';
  return input;
}

/**
 * The user's own words: Gemini hands BeforeAgent the prompt with the SessionStart context already
 * in front of it (`<hook_context>…</hook_context>`), which is Baton's, not the user's.
 */
export function userPrompt(prompt: string | undefined): string | undefined {
  if (prompt === undefined) return undefined;
  const own = prompt.replace(/<hook_context>[\s\S]*?(<\/hook_context>|$)/g, '').trim();
  return own === '' ? undefined : own;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function assign<K extends keyof HookInput>(input: HookInput, key: K, value: HookInput[K] | undefined): void {
  if (value !== undefined) input[key] = value;
}
