import type { ModelMessage } from 'ai';
import type { AnthropicBlock, AnthropicMessage, OpenAIChatMessage } from '../../loop/index.js';
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
  const out: OpenAIChatMessage[] = [];
  turns.forEach((t, i) => {
    if (t.kind === 'user') return void out.push({ role: 'user', content: t.text });
    const tool_calls = t.calls.map((c) => ({
      id: callId(c, i),
      type: 'function' as const,
      function: { name: c.name, arguments: JSON.stringify(argsObject(c.args)) },
    }));
    out.push({ role: 'assistant', content: t.text || null, ...(tool_calls.length ? { tool_calls } : {}) });
    for (const c of t.calls) out.push({ role: 'tool', tool_call_id: callId(c, i), content: withExitCode(c, client) });
  });
  return out;
}

/** AI SDK model messages (the shape a Gemini loop on the AI SDK sends): a failed call's result as `error-text`. Pure. */
export function toModelMessagesSession(turns: readonly SessionTurn[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  turns.forEach((t, i) => {
    if (t.kind === 'user') return void out.push({ role: 'user', content: t.text });
    const calls = t.calls.map((c) => ({
      type: 'tool-call' as const,
      toolCallId: callId(c, i),
      toolName: c.name,
      input: argsObject(c.args),
    }));
    out.push({ role: 'assistant', content: [...(t.text ? [{ type: 'text' as const, text: t.text }] : []), ...calls] });
    if (t.calls.length === 0) return;
    out.push({
      role: 'tool',
      content: t.calls.map((c) => ({
        type: 'tool-result' as const,
        toolCallId: callId(c, i),
        toolName: c.name,
        output: { type: c.failed ? ('error-text' as const) : ('text' as const), value: withExitCode(c, 'gemini') },
      })),
    });
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
