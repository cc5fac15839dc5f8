import {
  findTool,
  type ModelAction,
  type ModelRequestView,
  type Respond,
  type SeenToolResult,
  say,
} from '../../helpers/model-server/index.js';

/** One MCP tool call the scripted model asks for. */
export interface ScriptStep {
  /** Tool name as Baton registers it (matched against the client's prefixed name, e.g. mcp__baton__x). */
  tool: string;
  args: Record<string, unknown>;
  /** Optional: skip this step when the client offers no tool with this name. */
  optional?: boolean;
}

export const FINAL_TEXT = 'All Baton calls made.';

/**
 * Claude Code 2.1 may send its first turn while a stdio server is still connecting: that
 * server's tools are missing and `WaitForMcpServers` is offered instead. The script calls it
 * (as a model would), and its results are not steps.
 */
const WAIT_TOOL = 'WaitForMcpServers';

/** The results of the script's steps, as the model last received them (waits left out). */
export function stepResults(view: ModelRequestView | undefined): SeenToolResult[] {
  return (view?.toolResults ?? []).filter((result) => result.name !== WAIT_TOOL);
}

/**
 * A model that asks for `steps` in order, one per turn: the step to ask for is the number of
 * step results already in the conversation (side requests carry none). Optional steps the client
 * does not offer are skipped; a required one it does not offer is waited for once when the client
 * can wait, otherwise recorded in `missing`, and the script ends with FINAL_TEXT.
 */
export function stepScript(steps: readonly ScriptStep[]): { respond: Respond; missing: string[] } {
  const missing: string[] = [];
  const respond = (view: ModelRequestView): ModelAction => {
    const done = stepResults(view).length;
    const offered = steps.filter((step) => !step.optional || findTool(view.tools, step.tool));
    const next = offered[done];
    if (!next) return say(FINAL_TEXT);
    if (findTool(view.tools, next.tool)) return { tool: next.tool, args: next.args };
    const waited = view.toolCalls.some((call) => call.name === WAIT_TOOL);
    if (!waited && findTool(view.tools, WAIT_TOOL)) return { tool: WAIT_TOOL, args: {} };
    if (!missing.includes(next.tool)) missing.push(next.tool);
    return say(FINAL_TEXT);
  };
  return { respond, missing };
}
