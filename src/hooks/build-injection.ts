import type { Ledger } from '../ledger/index.js';
import { CLIENT_SPECS } from './client-specs.js';
import { gatherLedgerContext, readRecentCommits } from './gather-hook-context.js';
import type { DirtyState } from './measure-workspace.js';
import { type HookContextLimits, type RenderedHookContext, renderHookContext } from './render-hook-context.js';
import type { AgentSessionSource, HookInput, HookSessionState } from './types.js';

/** The cap on a client's injected context: its characters, and its tokens when it cuts by tokens. */
export function contextBudget(client: HookInput['client']): HookContextLimits {
  const spec = CLIENT_SPECS[client];
  return { chars: spec.maxContextChars, tokens: spec.maxContextTokens };
}

export interface InjectionRequest {
  ledger: Ledger;
  workspace: string;
  input: HookInput;
  /** The ledger id of the session. */
  sessionId: string;
  state: HookSessionState;
  source: AgentSessionSource;
  /** The workspace as just measured, when the caller has it. */
  dirty: DirtyState | undefined;
  /** The last commits, when the caller started reading them already. */
  commits?: Promise<Awaited<ReturnType<typeof readRecentCommits>>>;
  now: number;
}

/**
 * The context to inject, or undefined when there is nothing to say, or when this session's
 * history already holds the same context (a resume in Claude Code or Codex, which keep the
 * earlier copies): compared by digest, which leaves out the date line. After a compaction or a
 * clear the history lost the earlier copy, so the context goes in again; Gemini does not keep it
 * across a resume either.
 */
export async function buildInjection(request: InjectionRequest): Promise<RenderedHookContext | undefined> {
  const { ledger, workspace } = request;
  const [ledgerPart, commits] = await Promise.all([
    gatherLedgerContext(ledger, workspace),
    request.commits ?? readRecentCommits(workspace),
  ]);
  const rendered = renderHookContext(
    { workspace, now: request.now, sessionId: request.sessionId, source: request.source, git: request.dirty, commits, ...ledgerPart },
    contextBudget(request.input.client),
  );
  if (!rendered.hasContent) return undefined;
  const historyKeepsCopy =
    CLIENT_SPECS[request.input.client].historyKeepsContext && (request.source === 'resume' || request.source === 'startup');
  if (historyKeepsCopy && request.state.injectedDigest === rendered.digest) return undefined;
  return rendered;
}
