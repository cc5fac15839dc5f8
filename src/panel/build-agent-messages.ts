import { withDuplicatePrevention } from './duplicate-prevention.js';
import type { Attribution, PriorAnswer } from './types.js';

/** A chat message as the panel sends it (a subset of AI SDK 6's ModelMessage). */
export interface PanelMessage {
  role: 'assistant' | 'user';
  content: string;
}

/** What one agent is sent: its system prompt and the conversation after it. */
export interface AgentMessages {
  system: string;
  messages: PanelMessage[];
}

export interface BuildAgentMessagesInput {
  /** The agent's own prompt (prompt file body). */
  systemPrompt: string;
  question: string;
  /** Earlier successful answers (or their summaries) in chronological order; empty for none. */
  context: readonly PriorAnswer[];
  /** @default 'assistant' */
  attribution?: Attribution;
}

/**
 * Assembles one agent's call (seed 003): system prompt, then each earlier answer in order, then
 * the user's question. With `attribution: 'assistant'` (the default) an earlier answer is an
 * assistant turn holding the answer; with `'user'` it is a user turn "For context, <agent>
 * said: …". The system prompt gains the duplicate-prevention instructions only when context is
 * passed. Pure: the inputs are not modified.
 *
 * @example
 * buildAgentMessages({ systemPrompt, question, context: [{ agent: 'technique', text }] });
 * // { system: '…## Answering after other experts…', messages: [{ role: 'assistant', … }, { role: 'user', content: question }] }
 */
export function buildAgentMessages(input: BuildAgentMessagesInput): AgentMessages {
  const attribution = input.attribution ?? 'assistant';
  return {
    system: withDuplicatePrevention(
      input.systemPrompt,
      input.context.map((answer) => answer.agent),
    ),
    messages: [...input.context.map((answer) => renderContextMessage(answer, attribution)), { role: 'user', content: input.question }],
  };
}

/** One earlier answer as the message a later agent receives. Pure. */
export function renderContextMessage(answer: PriorAnswer, attribution: Attribution): PanelMessage {
  if (attribution === 'user') {
    const what = answer.summarized ? `said (summary of ${answer.agent}'s answer)` : 'said';
    return { role: 'user', content: `For context, ${answer.agent} ${what}: ${answer.text}` };
  }
  return { role: 'assistant', content: answer.summarized ? `[Summary of ${answer.agent}'s answer]\n${answer.text}` : answer.text };
}
