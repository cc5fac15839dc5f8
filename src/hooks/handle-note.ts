import { agentSessionId } from '../ledger/light.js';
import { sessionFiles } from './hook-paths.js';
import { readHookState } from './hook-state.js';
import { appendJournal } from './journal.js';
import type { HookInput, JournalEntry } from './types.js';

/**
 * The per-tool-call and per-prompt hooks: one line appended to the session's journal, nothing
 * else (no ledger, no git), so a tool call costs about a node start. The journal is folded into
 * the ledger when the turn ends (Stop, AfterAgent), before a compaction, at the session's end, and
 * by the next session start of the session when it died in between. Returns what to print.
 *
 * Gemini has no event after a compression: the first AfterTool after one carries the context
 * (the only heavier case, once per compression).
 */
export async function handleNote(input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv): Promise<string> {
  const files = sessionFiles(workspace, agentSessionId(input.client, input.sessionId));
  if (input.event === 'prompt') {
    if (input.prompt) appendJournal(files.journal, files.dir, { kind: 'prompt', at: now, prompt: input.prompt });
    return '';
  }
  appendJournal(files.journal, files.dir, toolEntry(input, now));
  if (input.client !== 'gemini' || !readHookState(files.state)?.compactPending) return '';
  const { injectAfterCompression } = await import('./handle-session.js');
  return injectAfterCompression(input, workspace, 'AfterTool', now, env);
}

/** @default 1200: characters of a failed command's output kept (its tail: errors come last). */
const FAILURE_OUTPUT_CHARS = 1_200;

/**
 * The journal line for one tool call. Whether it failed comes from the client: Claude fires
 * PostToolUseFailure ("Exit code N" first in its error), Gemini ends a shell result with
 * "Exit Code: N", Codex gives neither (its exit code is read from its rollout when the turn is
 * folded, by the call id kept here). The paths named in the tool's input are kept as hints only:
 * what changed is measured from the workspace when the turn is folded.
 */
function toolEntry(input: HookInput, at: number): Extract<JournalEntry, { kind: 'tool' }> {
  const tool = input.toolName ?? 'tool';
  const entry: Extract<JournalEntry, { kind: 'tool' }> = { kind: 'tool', at, tool };
  const command = commandOf(input.toolInput);
  if (command) entry.command = command;
  const paths = pathsOf(input.toolInput);
  if (paths.length > 0) entry.paths = paths;
  if (input.toolUseId) entry.callId = input.toolUseId;
  const failure = failureOf(input);
  if (failure) Object.assign(entry, { failed: true }, failure);
  else if (input.client === 'codex' && command) {
    // Codex says nothing of failure here; keep the output's tail in case the rollout shows one.
    const output = text(input.toolResponse);
    if (output) entry.error = tail(output);
  }
  return entry;
}

function failureOf(input: HookInput): { exitCode?: number; error?: string } | undefined {
  if (input.toolFailed) {
    const message = input.toolError ?? 'failed';
    const match = /^Exit code (\d+)\s*\n?/i.exec(message);
    return { ...(match ? { exitCode: Number(match[1]) } : {}), error: tail(match ? message.slice(match[0].length) : message) };
  }
  if (input.client !== 'gemini') return undefined;
  const response = input.toolResponse;
  if (response && typeof response === 'object' && 'error' in response && (response as { error?: unknown }).error) {
    return { error: tail(text((response as { error?: unknown }).error)) };
  }
  const content = text(response && typeof response === 'object' ? (response as { llmContent?: unknown }).llmContent : response);
  const match = /Exit Code: (-?\d+)/.exec(content);
  if (!match || match[1] === '0') return undefined;
  const output = /Output: ([\s\S]*?)\nExit Code:/.exec(content)?.[1] ?? content;
  return { exitCode: Number(match[1]), error: tail(output) };
}

function commandOf(toolInput: Record<string, unknown> | undefined): string | undefined {
  const value = toolInput?.command ?? toolInput?.cmd;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(String).join(' ');
  return undefined;
}

function pathsOf(toolInput: Record<string, unknown> | undefined): string[] {
  if (!toolInput) return [];
  const out: string[] = [];
  for (const key of ['file_path', 'path', 'notebook_path', 'absolute_path']) {
    const value = toolInput[key];
    if (typeof value === 'string' && value !== '') out.push(value);
  }
  return out;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function tail(value: string): string {
  const trimmed = value.trim();
  return trimmed.length <= FAILURE_OUTPUT_CHARS ? trimmed : `…${trimmed.slice(-FAILURE_OUTPUT_CHARS)}`;
}
