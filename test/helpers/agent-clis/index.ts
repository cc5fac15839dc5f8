/**
 * # The real agent CLIs, pinned, pointed at the scripted model server
 *
 * `ensureClients(['claude', 'codex'], 'my-suite')` in `beforeAll` installs missing clients into
 * `~/.cache/baton-clients` (`BATON_CLIENTS_CACHE` overrides; npm, each in its own folder, never this
 * package's dependencies) and warns visibly for each one it cannot get; `prepareAgentCli(name,
 * { serverUrl, cwd })` then sets the client up against a `startModelServer` URL in a throwaway
 * HOME and returns `run(prompt)` (headless, own process group, killed whole on timeout), the
 * `invocation` for tests that spawn it through something else (`baton run`), its `env`, `home` and
 * `configDir` (where hook settings go: `~/.claude/settings.json`, `~/.gemini/settings.json`,
 * `$CODEX_HOME/hooks.json`). Each set-up file (claude.ts, gemini.ts, codex.ts, copilot.ts) says
 * exactly what that client needs.
 */
export { CLAUDE_ALLOWED_TOOLS } from './claude.js';
export type { HeadlessOptions, PromptVia } from './client-setup.js';
export { CODEX_DEFAULT_MODEL, CODEX_KEY_VARIABLE, CODEX_PROVIDER } from './codex.js';
export { COPILOT_DEFAULT_MODEL } from './copilot.js';
export { OPENCODE_DEFAULT_MODEL, OPENCODE_PROVIDER } from './opencode.js';
export { clientBin, clientCache, clientDir, type EnsuredClient, ensureClient, ensureClients } from './ensure-client.js';
export {
  type AgentCli,
  type AgentRun,
  type AgentRunOptions,
  cleanEnvironment,
  DEFAULT_RUN_TIMEOUT_MS,
  type PrepareAgentCliOptions,
  prepareAgentCli,
} from './prepare-agent-cli.js';
export { type ProcessResult, type RunProcessOptions, runProcess } from './run-process.js';
export { AGENT_CLI_PACKAGES, AGENT_CLIS, type AgentCliName, type ClientName, type ModelCliName } from './versions.js';
