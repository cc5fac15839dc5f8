import type { ModelMessage } from 'ai';
import {
  type AnthropicBlock,
  type AnthropicMessage,
  type ContextMessage,
  type OpenAIChatMessage,
  toModelMessages,
  toOpenAIMessages,
} from '../../loop/index.js';
import type { SessionClient, SessionToolCall } from '../../sessions/index.js';
import { argsObject } from '../../vocabulary/index.js';
import type { SessionTurn } from './session-turns.js';

/** A call's id in the messages: the client's, else one made from its place. */
function callId(call: SessionToolCall, turn: number): string {
  return call.id ?? `call-${turn}`;
}

/** Anthropic Messages (Claude Code's own API): tool results in the next user message, `is_error` as the client said. Pure. */
export function toAnthropicSession(turns: readonly SessionTurn[]): AnthropicMessage[] {
  const out: { role: 'user' | 'assistant'; content: AnthropicBlock[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: AnthropicBlock[]) => {
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  turns.forEach((t, i) => {
    if (t.kind === 'user') return push('user', [{ type: 'text', text: t.text }]);
    const blocks: AnthropicBlock[] = t.text ? [{ type: 'text', text: t.text }] : [];
    for (const c of t.calls) blocks.push({ type: 'tool_use', id: callId(c, i), name: c.name, input: argsObject(c.args) });
    push('assistant', blocks);
    for (const c of t.calls)
      push('user', [{ type: 'tool_result', tool_use_id: callId(c, i), content: c.output ?? '', is_error: c.failed }]);
  });
  return out;
}

/**
 * OpenAI chat messages (the shape of Codex's and Copilot's requests): arguments as a JSON string,
 * the result as text with the exit code where the client puts it (Codex `Exit code: N` first,
 * Copilot `<exited with exit code N>` last), since chat messages carry no error flag. Pure.
 */
export function toOpenAISession(turns: readonly SessionTurn[], client: SessionClient): OpenAIChatMessage[] {
  return toOpenAIMessages(sessionMessages(turns, client));
}

/** AI SDK model messages (the shape a Gemini loop on the AI SDK sends): a failed call's result as `error-text`. Pure. */
export function toModelMessagesSession(turns: readonly SessionTurn[]): ModelMessage[] {
  return toModelMessages(sessionMessages(turns, 'gemini'));
}

/** The turns as provider-neutral messages, each result with its exit code where `client` puts it and failed ones flagged. */
function sessionMessages(turns: readonly SessionTurn[], client: SessionClient): ContextMessage[] {
  const out: ContextMessage[] = [];
  turns.forEach((t, i) => {
    if (t.kind === 'user') return void out.push({ role: 'user', content: t.text });
    const toolCalls = t.calls.map((c) => ({ id: callId(c, i), name: c.name, args: argsObject(c.args) }));
    out.push({ role: 'assistant', content: t.text, ...(toolCalls.length ? { toolCalls } : {}) });
    for (const c of t.calls) {
      const flag = c.failed ? { isError: true } : {};
      out.push({ role: 'tool', callId: callId(c, i), name: c.name, content: withExitCode(c, client), ...flag });
    }
  });
  return out;
}

function withExitCode(call: SessionToolCall, client: SessionClient): string {
  const output = call.output ?? '';
  if (call.exitCode === undefined || /exit code/i.test(output.slice(0, 200) + output.slice(-200))) return output;
  if (client === 'copilot') return `${output}\n<exited with exit code ${call.exitCode}>`;
  if (client === 'gemini') return `${output}\nExit Code: ${call.exitCode}`;
  return `Exit code: ${call.exitCode}\nOutput:\n${output}`;
}
