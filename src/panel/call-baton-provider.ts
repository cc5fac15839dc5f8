import { errorMessage } from '../errors/index.js';
import type { Provider } from '../providers/index.js';
import type { PanelMessage } from './build-agent-messages.js';
import type { AgentCallResult } from './call-agent-model.js';

export interface BatonProviderCallRequest {
  provider: Provider;
  model?: string;
  system: string;
  messages: PanelMessage[];
  timeoutMs: number;
  cwd: string;
  taskId: string;
  signal?: AbortSignal;
  /** Receives the whole answer at once: agent CLIs do not stream through this path. */
  onToken?: (text: string) => void;
}

/**
 * Flattens a panel call into one prompt for a Baton provider (agent CLIs take one prompt, not a
 * message list). Earlier answers keep their attribution: assistant-mode answers are marked as
 * earlier panel answers, user-mode ones already say who said them. Pure.
 */
export function renderPanelPrompt(system: string, messages: readonly PanelMessage[]): string {
  const question = messages.at(-1)?.content ?? '';
  const earlier = messages.slice(0, -1).map((m) => (m.role === 'assistant' ? `### Earlier answer\n${m.content}` : m.content));
  const parts = [system];
  if (earlier.length > 0) parts.push(`## Earlier answers on this panel\n\n${earlier.join('\n\n')}`);
  parts.push(`## Question\n\n${question}`);
  return parts.join('\n\n');
}

/**
 * One agent's answer through a Baton provider. Never throws: the provider's outcome kind is
 * kept, and a provider that throws counts as an agent_error.
 */
export async function callBatonProvider(request: BatonProviderCallRequest): Promise<AgentCallResult> {
  try {
    const result = await request.provider.run({
      prompt: renderPanelPrompt(request.system, request.messages),
      cwd: request.cwd,
      timeoutMs: request.timeoutMs,
      taskId: request.taskId,
      attempt: 1,
      ...(request.model === undefined ? {} : { model: request.model }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    const text = (result.response ?? result.output).trim();
    const usage = { input: result.usage?.input, output: result.usage?.output };
    if (result.outcome.kind !== 'ok') {
      return { ok: false, text, error: result.outcome.reason ?? result.outcome.kind, outcome: result.outcome.kind, usage };
    }
    if (!text) return { ok: false, text, error: 'the provider returned an empty answer', outcome: 'agent_error', usage };
    request.onToken?.(text);
    return { ok: true, text, outcome: 'ok', usage };
  } catch (error) {
    return { ok: false, text: '', error: errorMessage(error), outcome: 'agent_error', usage: {} };
  }
}
