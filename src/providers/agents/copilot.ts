import type { OutcomeKind } from '../../ledger/index.js';
import { matchKnownPhrase } from '../classify/known-phrases.js';
import type { AgentPermissions, TokenUsage } from '../types.js';
import { addTokens, asNumber, asRecord, asString, parseJsonLines, sumTokens } from './parse-json.js';
import type { AgentCliSpec, ParsedAgentOutput } from './types.js';

// Model names run on while words start with a capital or digit: "GPT-4.1 which…", "Claude Sonnet 4.5.".
const SWITCHED_MODEL = /switched you to ([A-Za-z0-9][\w.-]*(?: [A-Z0-9][\w.-]*)*)/;

/** session.error errorType values (copilot's session-events schema), as outcome kinds. */
const ERROR_TYPES: Readonly<Record<string, OutcomeKind>> = {
  authentication: 'auth_failed',
  authorization: 'auth_failed',
  quota: 'quota_exhausted',
  rate_limit: 'rate_limited',
  context_limit: 'context_window',
};

const PERMISSION_ARGS: Readonly<Record<AgentPermissions, readonly string[]>> = {
  // Tools not allowed are refused in prompt mode: file writes only, no shell.
  edits: ['--allow-tool', 'write'],
  // Every tool, within copilot's path checks (the working directory and the temp folder) and
  // without URLs it would have to ask about.
  workspace: ['--allow-all-tools'],
  full: ['--allow-all'],
};

/**
 * GitHub Copilot CLI: `copilot --prompt=PROMPT -s --allow-all-tools --output-format json`. The
 * prompt is one `--prompt=…` argument: copilot's parser refuses a value starting with `-` after a
 * bare `-p`. A large prompt goes on stdin, which copilot reads as the prompt. JSON mode (copilot ≥
 * 0.0.422) prints one session event per line; configured args come after Baton's and copilot
 * keeps the last `--output-format`, so `"args": ["--output-format", "text"]` falls back to plain
 * text. Failures before the session starts (no login, a classic PAT) stay plain stderr text.
 */
export const copilotSpec: AgentCliSpec = {
  type: 'copilot',
  defaultBinary: 'copilot',
  stdinPrompt: true,
  buildArgs: ({ prompt, promptOnStdin, model, permissions, extraArgs }) => [
    ...(promptOnStdin ? [] : [`--prompt=${prompt}`]),
    '-s',
    ...PERMISSION_ARGS[permissions],
    '--output-format',
    'json',
    ...(model === undefined ? [] : ['--model', model]),
    ...extraArgs,
  ],
  parseOutput: parseCopilotOutput,
  // Without a custom provider copilot talks to GitHub's Copilot API.
  endpoint: ({ env }) => Promise.resolve(env.COPILOT_PROVIDER_BASE_URL || 'https://api.githubcopilot.com'),
};

/**
 * Reads copilot's JSONL session events, else its plain text. The model is the one events say ran,
 * else a silent switch notice ("automatically switched you to GPT-4.1"), else the one selected.
 */
export function parseCopilotOutput(stdout: string, stderr: string): ParsedAgentOutput {
  const events = parseJsonLines(stdout).filter(isSessionEvent);
  const { parsed, ran, selected }: ReturnType<typeof parseEvents> =
    events.length === 0 ? { parsed: { structured: false, response: stdout.trim() || undefined } } : parseEvents(events);
  const notices = [stderr, ...(events.length === 0 ? [stdout] : noticeTexts(events))].join('\n');
  const switched = SWITCHED_MODEL.exec(notices)?.[1]?.replace(/[.,;:!]+$/, '');
  const model = ran ?? switched ?? selected;
  if (model !== undefined) parsed.model = model;
  return parsed;
}

/** Every copilot event has a dotted type with a data object, or is the closing `result`. */
function isSessionEvent(event: Record<string, unknown>): boolean {
  return event.type === 'result' || (typeof event.type === 'string' && asRecord(event.data) !== undefined);
}

/** The output, and the models named by the calls that ran and selected at session start (before any fallback). */
function parseEvents(events: Record<string, unknown>[]): { parsed: ParsedAgentOutput; ran?: string; selected?: string } {
  const parsed: ParsedAgentOutput = { structured: true };
  const models: { ran?: string; selected?: string } = {};
  const errors: string[] = [];
  const perCall: TokenUsage = {};
  const perMessage: TokenUsage = {};
  for (const event of events) {
    const data = asRecord(event.data) ?? {};
    switch (event.type) {
      case 'session.tools_updated':
        models.selected = nonEmpty(data.model) ?? models.selected;
        break;
      case 'session.model_change':
        models.ran = nonEmpty(data.newModel) ?? models.ran;
        break;
      case 'assistant.message': {
        models.ran = nonEmpty(data.model) ?? models.ran;
        // Turns that only call tools carry empty content; the answer is the last text.
        const content = asString(data.content)?.trim();
        if (content) parsed.response = content;
        addTokens(perMessage, 'output', asNumber(data.outputTokens));
        break;
      }
      case 'assistant.usage':
        models.ran = nonEmpty(data.model) ?? models.ran;
        addTokens(perCall, 'input', asNumber(data.inputTokens));
        addTokens(perCall, 'output', asNumber(data.outputTokens));
        break;
      case 'session.error':
        readError(data, parsed, errors);
        break;
      case 'result': {
        const exitCode = asNumber(event.exitCode);
        if (exitCode !== undefined && exitCode !== 0) parsed.isError = true;
        break;
      }
    }
  }
  if (errors.length > 0) parsed.errorText = [...new Set(errors)].join('\n');
  const usage = readUsage(perCall, perMessage);
  if (usage !== undefined) parsed.usage = usage;
  return { parsed, ...models };
}

/**
 * The kind comes from errorType, else the HTTP status, else the error's own words, else it is an
 * agent error: stdout also echoes the prompt (user.message), so the whole output must not be
 * searched for phrases.
 */
function readError(data: Record<string, unknown>, parsed: ParsedAgentOutput, errors: string[]): void {
  parsed.isError = true;
  const message = asString(data.message) ?? asString(data.errorType) ?? 'copilot session error';
  errors.push(message);
  const kind = ERROR_TYPES[asString(data.errorType) ?? ''] ?? kindOfStatus(asNumber(data.statusCode)) ?? matchKnownPhrase(message)?.kind;
  parsed.kind = kind ?? 'agent_error';
}

function kindOfStatus(status: number | undefined): OutcomeKind | undefined {
  if (status === 402) return 'quota_exhausted';
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth_failed';
  if (status === 404) return 'config_error';
  if (status !== undefined && status >= 500) return 'overloaded';
  return undefined;
}

/**
 * assistant.usage (per model call) has input and output tokens; without it only the messages'
 * outputTokens are known, so input and total stay unset rather than a misleading 0.
 */
function readUsage(perCall: TokenUsage, perMessage: TokenUsage): TokenUsage | undefined {
  return sumTokens(perCall.input, perCall.output) ?? (perMessage.output === undefined ? undefined : { output: perMessage.output });
}

/** Texts of warning and info events, where a model switch notice can appear in json mode. */
function noticeTexts(events: Record<string, unknown>[]): string[] {
  return events
    .filter((e) => e.type === 'session.warning' || e.type === 'session.info')
    .map((e) => asString(asRecord(e.data)?.message) ?? '');
}

function nonEmpty(value: unknown): string | undefined {
  const text = asString(value);
  return text === '' ? undefined : text;
}
