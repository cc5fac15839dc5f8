import { CLIENT_LIMITS } from '../clients/index.js';
import type { AgentClient, HookEvent } from './types.js';

/** One client event Baton registers (for every occurrence: no matcher): which `baton hook` event it runs. */
export interface ClientHookBinding {
  /** The client's event name, as its settings spell it. */
  clientEvent: string;
  event: HookEvent;
  /** Timeout in the client's unit: Claude and Codex count seconds, Gemini milliseconds. */
  timeout: number;
}

export interface ClientSpec {
  /** The dispatch `provider` of the session's turns. */
  provider: string;
  bindings: readonly ClientHookBinding[];
  /**
   * Whether a resumed session's history still holds the context injected earlier (Claude and
   * Codex keep every copy; Gemini CLI 0.61 does not save its SessionStart context with the
   * session, so a resume gets it again).
   */
  historyKeepsContext: boolean;
}

/*
 * Only the events Baton needs (issue 37): each one is a Node start the client waits for. The
 * session's own transcript holds every prompt, tool call, result, failure, plan and compaction,
 * and the fold at the end of each turn reads it (fold-session.ts), so the per-prompt,
 * per-tool-call and pre-compaction events are not registered: SessionStart injects the context,
 * the end of a turn folds it (measuring the workspace, so measured files win), SessionEnd closes
 * the record, Claude's StopFailure marks a usage limit, and Gemini's BeforeAgent (once per prompt)
 * injects after a compression, which Gemini reports with no event after it. `baton hook` still
 * accepts the events an older install registered (prompt, post-tool, pre-compact), and
 * `baton hooks install` removes them from the settings.
 *
 * Timeouts: a session start reads the ledger and git (well under a second, 10 s allowed); a fold
 * runs git, reads the transcript and writes the ledger (10 s); Claude cuts SessionEnd after 1.5 s
 * and Codex clamps it to 3 s whatever the setting says.
 */
export const CLIENT_SPECS: Readonly<Record<AgentClient, ClientSpec>> = {
  claude: {
    provider: 'claude-code',
    historyKeepsContext: true,
    bindings: [
      { clientEvent: 'SessionStart', event: 'session-start', timeout: 10 },
      { clientEvent: 'Stop', event: 'stop', timeout: 10 },
      // A turn cut off by an API error (a usage limit: `"error":"rate_limit"`) ends with StopFailure, not Stop.
      { clientEvent: 'StopFailure', event: 'stop', timeout: 10 },
      { clientEvent: 'SessionEnd', event: 'session-end', timeout: 2 },
    ],
  },
  gemini: {
    provider: 'gemini-cli',
    historyKeepsContext: false,
    bindings: [
      { clientEvent: 'SessionStart', event: 'session-start', timeout: 10_000 },
      { clientEvent: 'BeforeAgent', event: 'before-agent', timeout: 10_000 },
      { clientEvent: 'AfterAgent', event: 'stop', timeout: 10_000 },
      { clientEvent: 'SessionEnd', event: 'session-end', timeout: 5_000 },
    ],
  },
  codex: {
    provider: 'codex',
    historyKeepsContext: true,
    bindings: [
      { clientEvent: 'SessionStart', event: 'session-start', timeout: 10 },
      { clientEvent: 'Stop', event: 'stop', timeout: 10 },
      { clientEvent: 'SessionEnd', event: 'session-end', timeout: 3 },
    ],
  },
};

export function isAgentClient(value: unknown): value is AgentClient {
  return value === 'claude' || value === 'gemini' || value === 'codex';
}

/** A client's product name, for people; a client Baton has no hooks for (an imported Copilot session) as it is named. */
export function clientLabel(client: string): string {
  return isAgentClient(client) ? CLIENT_LIMITS[client].label : client;
}
