import { createHash } from 'node:crypto';
import type { Dispatch, Ledger, LedgerRecord, SessionData } from '../ledger/index.js';
import { newId } from '../ledger/index.js';
import { redactSecrets } from '../redact/index.js';
import { truncateToTokens } from '../tokens/index.js';
import type { Attribution, PanelAnswer } from './types.js';

/** How much of an answer a dispatch keeps, in tokens. @default 300 */
export const DEFAULT_DISPATCH_RESULT_TOKENS = 300;

/** The `data` of a panel's session record (collection 'sessions'). */
export interface PanelSessionData extends SessionData {
  kind: 'panel';
  question: string;
  agents: string[];
  attribution: Attribution;
  panelFile?: string;
  answers?: Array<Pick<PanelAnswer, 'agent' | 'ok' | 'outcome' | 'contextMode' | 'dispatchId'>>;
}

/**
 * Ledger writers: everything written is masked for secrets first (DESIGN.md: whatever Baton
 * emits is redacted), and long texts are cut to DEFAULT_DISPATCH_RESULT_TOKENS. The PanelResult
 * handed back to the caller keeps the agents' words unchanged.
 */

/** Opens the session record of one panel exchange; its dispatches use task id `panel:<id>`. */
export async function startPanelSession(
  ledger: Ledger,
  data: { question: string; agents: string[]; attribution: Attribution; panelFile?: string },
): Promise<LedgerRecord<PanelSessionData>> {
  const id = newId('pn');
  return ledger.createRecord<PanelSessionData>('sessions', {
    id,
    status: 'active',
    taskId: panelTaskId(id),
    data: { kind: 'panel', ...data, question: await redacted(data.question) },
  });
}

/** The synthetic task id a panel session's dispatches are filed under. */
export function panelTaskId(sessionId: string): string {
  return `panel:${sessionId}`;
}

/** Appends a running dispatch for one agent's answer, before the call. */
export async function startAgentDispatch(
  ledger: Ledger,
  input: { taskId: string; agent: string; model: string; system: string; context: string; startedAt: number },
): Promise<Dispatch> {
  return ledger.appendDispatch({
    taskId: input.taskId,
    attempt: 1,
    provider: input.agent,
    model: input.model,
    mode: 'panel',
    status: 'running',
    promptDigest: createHash('sha256').update(input.system).digest('hex').slice(0, 16),
    injectedContext: input.context ? await redacted(truncateToTokens(input.context, DEFAULT_DISPATCH_RESULT_TOKENS)) : undefined,
    startedAt: input.startedAt,
  });
}

/** Closes an agent's dispatch with its outcome, a truncated answer (or the error) and token counts. */
export async function finishAgentDispatch(ledger: Ledger, answer: PanelAnswer, finishedAt: number): Promise<Dispatch> {
  const result = answer.ok ? truncateToTokens(answer.text, DEFAULT_DISPATCH_RESULT_TOKENS) : answer.error;
  return ledger.updateDispatch(answer.dispatchId, {
    status: answer.ok ? 'completed' : answer.outcome === 'interrupted' ? 'interrupted' : 'failed',
    outcome: answer.outcome,
    result: result === undefined ? undefined : await redacted(result),
    tokensIn: answer.tokens.input,
    tokensOut: answer.tokens.output,
    finishedAt,
    durationMs: answer.durationMs,
  });
}

/** Marks the session ended with a line per answer. */
export async function endPanelSession(ledger: Ledger, sessionId: string, answers: readonly PanelAnswer[], endedAt: number): Promise<void> {
  await ledger.updateRecord<PanelSessionData>('sessions', sessionId, {
    status: 'ended',
    data: {
      endedAt,
      tokensUsed: answers.reduce((sum, a) => sum + a.tokens.input + a.tokens.output, 0),
      answers: answers.map(({ agent, ok, outcome, contextMode, dispatchId }) => ({ agent, ok, outcome, contextMode, dispatchId })),
    },
  });
}

async function redacted(text: string): Promise<string> {
  return (await redactSecrets(text)).text;
}
