import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type BatonErrorCode, errorMessage, isBatonError } from '../errors/index.js';
// Not the logger itself: pino loads only when a record is written (log-later.ts).
import { logLater } from '../observability/index.js';
import { redactValue } from '../redact/index.js';
import { toWireCase } from '../util/index.js';

/** `_meta` key of an error result's structured form (`{code, error, details?, next}`). */
export const ERROR_META_KEY = 'baton/error';

/**
 * A successful tool result in both forms: `structuredContent` and, as the text block, exactly
 * `JSON.stringify(structuredContent)`. Compact and byte for byte the same JSON: a client that
 * forwards both forms when they differ (Copilot CLI) then sends it once (client-forwarding.ts).
 * Keys are converted to snake_case here, the one place MCP results are built (ledger rows are
 * camelCase TypeScript objects; the wire is snake_case, docs/api.md), and every string is passed
 * through the redactor. (refresh_context builds its own result: see its tool.)
 */
export async function okResult(structured: Record<string, unknown>): Promise<CallToolResult> {
  const { value } = await redactValue(toWireCase(structured) as Record<string, unknown>);
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** What an agent should do after each kind of failure, shown with the error. */
const NEXT_STEPS: Partial<Record<BatonErrorCode, string>> = {
  WORKSPACE_NOT_SET: 'Call workspace_handshake with project_root set to the absolute path of your project, then call this tool again.',
  INPUT_INVALID: "Fix the argument named above (the tool's input schema lists what it accepts) and call again.",
  NOT_FOUND: 'Check the id: task(action: "list") and dispatch(action: "list") show what exists.',
  LEDGER_UNAVAILABLE:
    'The ledger (BATON_LEDGER or .baton/agent.db) cannot be reached: refresh_context still works from git and files; tell the user.',
  LEDGER_CONFLICT: 'Someone changed the record first: read it again and retry with its current state.',
  PATH_OUTSIDE_WORKSPACE: 'Use a path inside the active workspace.',
  BUDGET_TOO_SMALL: 'Ask for a smaller format, fewer tasks, or include_* options turned off.',
};
const DEFAULT_NEXT_STEP = 'Retry once; if it fails again, tell the user the message above (the server log has the details).';

/**
 * An `isError` result every client shows: plain readable text (code, message, the field at fault,
 * what to do next), never JSON, because Gemini CLI parses a JSON error text as structured content
 * and replaces the message with an output-schema complaint. No `structuredContent` either (clients
 * validate it against the tool's output schema); the structured form rides in `_meta`, redacted.
 */
export async function errorResult(error: unknown): Promise<CallToolResult> {
  const code: BatonErrorCode = isBatonError(error) ? error.code : 'INTERNAL';
  if (!isBatonError(error)) logLater('error', { err: errorMessage(error) }, 'mcp tool failed');
  const details = isBatonError(error) && Object.keys(error.details).length > 0 ? error.details : undefined;
  const next = NEXT_STEPS[code] ?? DEFAULT_NEXT_STEP;
  const { value } = await redactValue({ code, error: errorMessage(error), ...(details ? { details } : {}), next });
  const lines = [`Error ${value.code}: ${value.error}`];
  const at = fieldLine(value.details);
  if (at) lines.push(at);
  lines.push(`Next step: ${value.next}`);
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true, _meta: { [ERROR_META_KEY]: value } };
}

function fieldLine(details: Record<string, unknown> | undefined): string | undefined {
  if (!details || typeof details.field !== 'string') return undefined;
  return 'value' in details ? `Field: ${details.field} (got ${JSON.stringify(details.value)})` : `Field: ${details.field}`;
}

/** Runs a handler and turns any throw into an `isError` result, so no tool ever crashes a session. */
export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return errorResult(error);
  }
}
