import { BatonError } from '../errors/index.js';

/**
 * What an MCP client gives its model of a tool result that carries both a text block and
 * `structuredContent`:
 * - `structured`: the structured content only (as compact JSON), whatever the text says;
 * - `text`: the text block only;
 * - `both-deduplicated`: the text, then the structured content, except when the text is exactly
 *   `JSON.stringify(structuredContent)`: then that JSON once;
 * - `both`: both, always (the worst case, assumed for a client Baton does not know).
 */
export type ClientForwarding = 'structured' | 'text' | 'both-deduplicated' | 'both';

/** The values `BATON_MCP_FORWARDS` accepts (what a user can say about a client Baton does not know). */
export const FORWARDING_OVERRIDES = ['structured', 'text', 'both'] as const;
export type ForwardingOverride = (typeof FORWARDING_OVERRIDES)[number];

/**
 * How a client hands a resource it read to its model: `text`, the resource's text as it is;
 * `json`, the read result as JSON, the text inside it escaped as a JSON string (every quote and
 * newline costs more tokens).
 */
export type ResourceForwarding = 'text' | 'json';

/** How a client handles tool results, as far as the size of what reaches its model goes. */
export interface ClientProfile {
  forwards: ClientForwarding;
  /** Tokens the client adds around a result (its own prefix or tags), kept free of each cap. */
  wrapperTokens: number;
  resources: ResourceForwarding;
  /** Bytes of a tool result the client gives its model whole; past it, something else. @default none */
  maxResultBytes?: number;
}

/**
 * The clients Baton was measured in (docs/mcp.md, "What each client forwards"), by the
 * `clientInfo.name` they send in `initialize`. Each was run against a tool whose text block and
 * structured content carried different markers, and the model request it sent next was read.
 */
export const KNOWN_CLIENTS: Readonly<Record<string, ClientProfile>> = {
  // Claude Code 2.1.197: JSON.stringify(structuredContent); the text block never reaches the model.
  // ReadMcpResourceTool answers {"contents":[{"uri","mimeType","text"}]} as JSON.
  'claude-code': { forwards: 'structured', wrapperTokens: 0, resources: 'json' },
  // Codex CLI 0.171.0: the structured content as compact JSON after "Wall time: 0.0068 seconds\nOutput:\n"
  // (12 tokens); read_mcp_resource answers {"server","uri","contents":[…]} as JSON.
  'codex-mcp-client': { forwards: 'structured', wrapperTokens: 16, resources: 'json' },
  // Gemini CLI 0.61.0: the text block inside <untrusted_context> tags (9 tokens); read_mcp_resource
  // answers the resource's text as it is.
  'gemini-cli-mcp-client': { forwards: 'text', wrapperTokens: 16, resources: 'text' },
  // Copilot CLI 1.0.102: text + "\n\n" + compact JSON, or the JSON once when the text is that JSON.
  // A result over 20,480 bytes is saved to a temporary file and the model gets only "Output too large
  // to read at once (20.0 KB). Saved to: …". It offers the model no tool that reads resources.
  'copilot-cli': { forwards: 'both-deduplicated', wrapperTokens: 0, resources: 'json', maxResultBytes: 20_480 },
  // The MCP Inspector CLI 2.12.0 prints the whole result for a person: no model, no wrapper.
  'inspector-cli': { forwards: 'text', wrapperTokens: 0, resources: 'text' },
};

/** @default 32: tokens kept free for the wrapper of a client Baton does not know. */
export const UNKNOWN_CLIENT_WRAPPER_TOKENS = 32;

/**
 * The profile to size results for: the known client's, else the worst case (both forms
 * forwarded, a wrapper around them). An override (`BATON_MCP_FORWARDS`) replaces what the client
 * forwards, keeping a known client's wrapper.
 */
export function clientProfile(clientName: string | undefined, override?: ForwardingOverride): ClientProfile {
  // Own keys only: a client named `constructor` or `toString` must not find Object's members.
  const known = clientName !== undefined && Object.hasOwn(KNOWN_CLIENTS, clientName) ? KNOWN_CLIENTS[clientName] : undefined;
  const wrapperTokens = known?.wrapperTokens ?? UNKNOWN_CLIENT_WRAPPER_TOKENS;
  const resources = known?.resources ?? 'json';
  if (override) return { ...known, forwards: override, wrapperTokens, resources };
  return known ?? { forwards: 'both', wrapperTokens, resources };
}

/**
 * The token budget one copy of a result may take so that what the client hands its model stays
 * within `cap`: the cap less the client's wrapper, halved when the client forwards both forms.
 * Undefined when the format's own cap applies unchanged.
 */
export function resultBudget(cap: number, profile: ClientProfile): number | undefined {
  const copies = profile.forwards === 'both' ? 2 : 1;
  if (copies === 1 && profile.wrapperTokens === 0) return undefined;
  return Math.floor((cap - profile.wrapperTokens) / copies);
}

/**
 * The text block to send beside `structuredContent`: for every client that may forward both
 * forms, exactly `JSON.stringify(structured)`, which a deduplicating client (Copilot CLI) sends
 * once; a client that forwards only one form gets `text` (the narrative's markdown) when given.
 */
export function textBlockFor(profile: ClientProfile, structured: Record<string, unknown>, text?: string): string {
  return text !== undefined && profile.forwards !== 'both-deduplicated' ? text : JSON.stringify(structured);
}

/** Reads `BATON_MCP_FORWARDS`; undefined when unset. Throws INPUT_INVALID naming the variable. */
export function parseForwardingOverride(value: string | undefined): ForwardingOverride | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const given = value.trim();
  if ((FORWARDING_OVERRIDES as readonly string[]).includes(given)) return given as ForwardingOverride;
  throw new BatonError('INPUT_INVALID', `BATON_MCP_FORWARDS must be one of ${FORWARDING_OVERRIDES.join(', ')}; got "${value}"`, {
    details: { field: 'BATON_MCP_FORWARDS', value },
  });
}
