import type { OfferedTool, ToolCallAction } from './types.js';
import type { ResolvedCall } from './wire.js';

/**
 * An offered tool for a logical name: the exact name, else an offered name ending in `__name`,
 * `_name`, `.name`, `/name` or `-name` (Copilot CLI names MCP tools `server-tool`: `baton-task`).
 */
export function findTool(tools: readonly OfferedTool[], name: string): OfferedTool | undefined {
  return (
    tools.find((t) => t.name === name) ?? tools.find((t) => ['__', '_', '.', '/', '-'].some((sep) => t.name.endsWith(`${sep}${name}`)))
  );
}

/**
 * The call to put on the wire for a scripted tool call (following its fallbacks), or an error
 * naming what the client offered instead.
 */
export function resolveCall(action: ToolCallAction, tools: readonly OfferedTool[], id: string): ResolvedCall | { error: string } {
  const tried: string[] = [];
  for (let step: ToolCallAction | undefined = action; step; step = step.fallback) {
    tried.push(step.tool);
    const tool = findTool(tools, step.tool);
    if (!tool) continue;
    const args = tool.kind === 'custom' ? freeformInput(step.args) : step.args;
    return { id, name: tool.name, kind: tool.kind, args, ...(tool.namespace ? { namespace: tool.namespace } : {}) };
  }
  const names = tools.map((t) => t.name).join(', ') || 'none';
  return { error: `the script called ${tried.join(' / ')}, which the client did not offer (offered: ${names})` };
}

/** A freeform tool takes a string; `{ input: '…' }` from a script written for function tools works too. */
function freeformInput(args: Record<string, unknown> | string): string {
  if (typeof args === 'string') return args;
  return typeof args.input === 'string' ? args.input : JSON.stringify(args);
}
