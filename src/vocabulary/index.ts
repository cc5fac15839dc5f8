/**
 * Baton's one vocabulary of agent tools and its one failure-line picker: what each agent's tool
 * call did (Claude Code, Codex CLI, Gemini CLI, Copilot CLI, OpenHands, SWE-agent), the exit code a
 * result states, and the line that says why a command failed. Pure functions, no I/O; loads
 * nothing heavy (the hooks import it on every call). Used by the loop, the session readers, the
 * hooks and refresh: nobody writes a second table.
 */
export { argsObject, describeToolCall } from './describe-tool-call.js';
export { exitCodeOf } from './exit-code-of.js';
export { failureOf } from './failure-of.js';
export { formatToolCall } from './format-tool-call.js';

export { FAILURE_LINE_MAX_CHARS, findFailureLine, pickFailureLine } from './pick-failure-line.js';
export { applyPlan, createdPlanItemId, openPlanItems, planListOf, planStatus } from './plan-items.js';
export { clipWords, describeShellCommand, keyOfCommand } from './shell-command.js';
export { TOOL_TABLE } from './tool-table.js';
export type { CallFailure } from './failure-of.js';

export type { PlanItem, PlanMode, ToolDescription, ToolKind } from './types.js';
