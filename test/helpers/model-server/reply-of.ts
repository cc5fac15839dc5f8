import { resolveCall } from './resolve-tool.js';
import type { ModelAction, OfferedTool, ToolCallAction } from './types.js';
import type { ModelReply, ResolvedCall } from './wire.js';

/** The reply for a non-failing action, its tool calls resolved against the offered tools; or why it cannot be sent. */
export function replyOf(
  action: Exclude<ModelAction, { fail: unknown }>,
  tools: readonly OfferedTool[],
  idPrefix: string,
): ModelReply | { error: string } {
  const usage = action.usage ? { usage: action.usage } : {};
  if ('text' in action && !('toolCalls' in action)) return { text: action.text, calls: [], ...usage };
  const actions: ToolCallAction[] = 'toolCalls' in action ? action.toolCalls : [action];
  const calls: ResolvedCall[] = [];
  for (const [i, call] of actions.entries()) {
    const resolved = resolveCall(call, tools, `${idPrefix}_${i}`);
    if ('error' in resolved) return resolved;
    calls.push(resolved);
  }
  return { ...('toolCalls' in action && action.text !== undefined ? { text: action.text } : {}), calls, ...usage };
}
