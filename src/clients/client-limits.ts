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

/**
 * How a client hands a resource it read to its model: `text`, the resource's text as it is;
 * `json`, the read result as JSON, the text inside it escaped as a JSON string (every quote and
 * newline costs more tokens).
 */
export type ResourceForwarding = 'text' | 'json';

/** The size limits of one agent client, as measured (docs/mcp.md, docs/hooks.md). */
export interface ClientLimits {
  /** The product's name, for people. */
  label: string;
  /** The `clientInfo.name` it sends in MCP `initialize`. */
  mcpName: string;
  forwards: ClientForwarding;
  /** Tokens the client adds around a tool result (its own prefix or tags), kept free of each cap. */
  wrapperTokens: number;
  resources: ResourceForwarding;
  /** Bytes of a tool result the client gives its model whole; past it, something else. @default none */
  maxResultBytes?: number;
  /** Hook-injected context cap, in characters (Claude previews only 2 KB of anything over 10,000). */
  maxContextChars?: number;
  /** Hook-injected context cap in o200k tokens, when the client cuts by tokens (Codex, ~2,500). */
  maxContextTokens?: number;
}

/**
 * The one table of the clients Baton was measured in, shared by mcp/ (sizing tool results and
 * resource reads) and hooks/ (sizing the injected context). Each was run against a tool whose text
 * block and structured content carried different markers, and the model request it sent next was read.
 */
export const CLIENT_LIMITS = {
  // Claude Code 2.1.197: JSON.stringify(structuredContent); the text block never reaches the model.
  // ReadMcpResourceTool answers {"contents":[{"uri","mimeType","text"}]} as JSON.
  claude: {
    label: 'Claude Code',
    mcpName: 'claude-code',
    forwards: 'structured',
    wrapperTokens: 0,
    resources: 'json',
    maxContextChars: 9_500,
  },
  // Codex CLI 0.171.0: the structured content as compact JSON after "Wall time: 0.0068 seconds\nOutput:\n"
  // (12 tokens); read_mcp_resource answers {"server","uri","contents":[…]} as JSON.
  codex: {
    label: 'Codex CLI',
    mcpName: 'codex-mcp-client',
    forwards: 'structured',
    wrapperTokens: 16,
    resources: 'json',
    maxContextChars: 9_000,
    maxContextTokens: 2_400,
  },
  // Gemini CLI 0.61.0: the text block inside <untrusted_context> tags (9 tokens); read_mcp_resource
  // answers the resource's text as it is.
  gemini: {
    label: 'Gemini CLI',
    mcpName: 'gemini-cli-mcp-client',
    forwards: 'text',
    wrapperTokens: 16,
    resources: 'text',
    maxContextChars: 20_000,
  },
  // Copilot CLI 1.0.102: text + "\n\n" + compact JSON, or the JSON once when the text is that JSON.
  // A result over 20,480 bytes is saved to a temporary file and the model gets only "Output too large
  // to read at once (20.0 KB). Saved to: …". It offers the model no tool that reads resources.
  copilot: {
    label: 'Copilot CLI',
    mcpName: 'copilot-cli',
    forwards: 'both-deduplicated',
    wrapperTokens: 0,
    resources: 'json',
    maxResultBytes: 20_480,
  },
  // The MCP Inspector CLI 2.12.0 prints the whole result for a person: no model, no wrapper.
  inspector: { label: 'MCP Inspector CLI', mcpName: 'inspector-cli', forwards: 'text', wrapperTokens: 0, resources: 'text' },
} as const satisfies Record<string, ClientLimits>;
