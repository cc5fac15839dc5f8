/** The agent CLIs the tests run, pinned (the brief's versions), and the MCP Inspector. */
export const AGENT_CLI_PACKAGES = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude', title: 'Claude Code' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini', title: 'Gemini CLI' },
  codex: { pkg: '@openai/codex', version: '0.171.0', bin: 'codex', title: 'Codex CLI' },
  copilot: { pkg: '@github/copilot', version: '1.0.102', bin: 'copilot', title: 'Copilot CLI' },
  opencode: { pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode', title: 'OpenCode' },
  inspector: { pkg: '@modelcontextprotocol/inspector', version: '2.12.0', bin: 'inspector', title: 'MCP Inspector' },
} as const;

/** Every pinned package, the Inspector included. */
export type ClientName = keyof typeof AGENT_CLI_PACKAGES;

/** The four agent CLIs that talk to a model and that Baton runs as providers. */
export type AgentCliName = Exclude<ClientName, 'inspector' | 'opencode'>;

/** Every pinned CLI that talks to a model: the four, and OpenCode (whose sessions Baton reads). */
export type ModelCliName = Exclude<ClientName, 'inspector'>;

export const AGENT_CLIS: readonly AgentCliName[] = ['claude', 'gemini', 'codex', 'copilot'];
