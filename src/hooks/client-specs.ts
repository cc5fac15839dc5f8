import type { AgentClient, HookEvent } from './types.js';

/** One client event Baton registers: which `baton hook` event it runs, for which matcher. */
export interface ClientHookBinding {
  /** The client's event name, as its settings spell it. */
  clientEvent: string;
  event: HookEvent;
  /** Matcher (a tool-name pattern, or a source/trigger); '' for every occurrence. */
  matcher: string;
  /** Timeout in the client's unit (see ClientSpec.timeoutUnit). */
  timeout: number;
}

export interface ClientSpec {
  client: AgentClient;
  /** The product's name, for people. */
  label: string;
  /** The dispatch `provider` of the session's turns. */
  provider: string;
  /** Hook timeouts in settings: Claude and Codex count seconds, Gemini milliseconds. */
  timeoutUnit: 's' | 'ms';
  bindings: readonly ClientHookBinding[];
  /** Injected context cap, in characters (Claude previews only 2 KB of anything over 10,000). */
  maxContextChars: number;
  /** Injected context cap in o200k tokens, when the client cuts by tokens (Codex, ~2,500). */
  maxContextTokens?: number;
  /**
   * Whether a resumed session's history still holds the context injected earlier (Claude and
   * Codex keep every copy; Gemini CLI 0.61 does not save its SessionStart context with the
   * session, so a resume gets it again).
   */
  historyKeepsContext: boolean;
}

/** Claude's tools that change files, and its shell: the per-tool-call hook runs only for these. */
const CLAUDE_WRITING_TOOLS = 'Write|Edit|MultiEdit|NotebookEdit|Bash';
/** Gemini's: write_file, replace (edits) and run_shell_command. */
const GEMINI_WRITING_TOOLS = 'write_file|replace|run_shell_command';

/*
 * Timeouts: a session start reads the ledger and git (well under a second, 10 s allowed); the
 * per-tool and prompt hooks only append a line (5 s); a fold runs git and writes the ledger (10 s);
 * Claude cuts SessionEnd after 1.5 s and Codex clamps it to 3 s whatever the setting says.
 */
export const CLIENT_SPECS: Readonly<Record<AgentClient, ClientSpec>> = {
  claude: {
    client: 'claude',
    label: 'Claude Code',
    provider: 'claude-code',
    timeoutUnit: 's',
    maxContextChars: 9_500,
    historyKeepsContext: true,
    bindings: [
      { clientEvent: 'SessionStart', event: 'session-start', matcher: '', timeout: 10 },
      { clientEvent: 'UserPromptSubmit', event: 'prompt', matcher: '', timeout: 5 },
      { clientEvent: 'PostToolUse', event: 'post-tool', matcher: CLAUDE_WRITING_TOOLS, timeout: 5 },
      { clientEvent: 'PostToolUseFailure', event: 'post-tool', matcher: '', timeout: 5 },
      { clientEvent: 'PreCompact', event: 'pre-compact', matcher: '', timeout: 10 },
      { clientEvent: 'Stop', event: 'stop', matcher: '', timeout: 10 },
      // A turn cut off by an API error (a usage limit: `"error":"rate_limit"`) ends with StopFailure, not Stop.
      { clientEvent: 'StopFailure', event: 'stop', matcher: '', timeout: 10 },
      { clientEvent: 'SessionEnd', event: 'session-end', matcher: '', timeout: 2 },
    ],
  },
  gemini: {
    client: 'gemini',
    label: 'Gemini CLI',
    provider: 'gemini-cli',
    timeoutUnit: 'ms',
    maxContextChars: 20_000,
    historyKeepsContext: false,
    bindings: [
      { clientEvent: 'SessionStart', event: 'session-start', matcher: '', timeout: 10_000 },
      { clientEvent: 'BeforeAgent', event: 'before-agent', matcher: '', timeout: 10_000 },
      { clientEvent: 'AfterTool', event: 'post-tool', matcher: GEMINI_WRITING_TOOLS, timeout: 5_000 },
      { clientEvent: 'PreCompress', event: 'pre-compact', matcher: '', timeout: 10_000 },
      { clientEvent: 'AfterAgent', event: 'stop', matcher: '', timeout: 10_000 },
      { clientEvent: 'SessionEnd', event: 'session-end', matcher: '', timeout: 5_000 },
    ],
  },
  codex: {
    client: 'codex',
    label: 'Codex CLI',
    provider: 'codex',
    timeoutUnit: 's',
    maxContextChars: 9_000,
    maxContextTokens: 2_400,
    historyKeepsContext: true,
    bindings: [
      { clientEvent: 'SessionStart', event: 'session-start', matcher: '', timeout: 10 },
      { clientEvent: 'UserPromptSubmit', event: 'prompt', matcher: '', timeout: 5 },
      { clientEvent: 'PostToolUse', event: 'post-tool', matcher: '', timeout: 5 },
      { clientEvent: 'PreCompact', event: 'pre-compact', matcher: '', timeout: 10 },
      { clientEvent: 'Stop', event: 'stop', matcher: '', timeout: 10 },
      { clientEvent: 'SessionEnd', event: 'session-end', matcher: '', timeout: 3 },
    ],
  },
};

export function isAgentClient(value: unknown): value is AgentClient {
  return value === 'claude' || value === 'gemini' || value === 'codex';
}
