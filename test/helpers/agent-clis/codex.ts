import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ClientSetup, ClientSetupInput } from './client-setup.js';

/** A model Codex 0.171 knows: it then offers `apply_patch` (freeform) and `exec_command`, with no metadata warning. */
export const CODEX_DEFAULT_MODEL = 'gpt-5.5';
/** The provider id in config.toml, and the variable holding its dummy key. */
export const CODEX_PROVIDER = 'scripted';
export const CODEX_KEY_VARIABLE = 'BATON_SCRIPTED_MODEL_KEY';

/**
 * Codex CLI 0.171.0 against the OpenAI Responses API (the only wire API it speaks):
 * `CODEX_HOME=~/.codex` holding `config.toml` with `model_provider` and
 * `[model_providers.scripted] base_url = "URL/v1", wire_api = "responses", env_key`, the workspace
 * trusted, `approval_policy = "never"` and `sandbox_mode = "workspace-write"` (shell commands run,
 * writes stay in the workspace). Headless: `codex exec --json --skip-git-repo-check -C CWD -- PROMPT`
 * (`--` so a prompt starting with `-` stays a prompt; `-` reads it from stdin). Hooks:
 * `$CODEX_HOME/hooks.json` plus `[features] hooks = true` (pass it through `codexToml`) and
 * `--dangerously-bypass-hook-trust` (or persisted trust). MCP servers (`[mcp_servers.NAME]` through
 * `codexToml`): for a model it knows, Codex offers their tools only through its client-side
 * `tool_search` (the server renders `callTool('tool_search', { query })`), and with approval
 * "never" a call is refused unless the server table says `default_tools_approval_mode = "approve"`.
 */
export function codexSetup({ serverUrl, cwd, home, model = CODEX_DEFAULT_MODEL, codexToml = '' }: ClientSetupInput): ClientSetup {
  const configDir = path.join(home, '.codex');
  mkdirSync(configDir, { recursive: true });
  const toml = [
    `model = ${JSON.stringify(model)}`,
    `model_provider = "${CODEX_PROVIDER}"`,
    'approval_policy = "never"',
    'sandbox_mode = "workspace-write"',
    'check_for_update_on_startup = false',
    codexToml,
    '',
    `[model_providers.${CODEX_PROVIDER}]`,
    'name = "Scripted test model"',
    `base_url = ${JSON.stringify(`${serverUrl}/v1`)}`,
    'wire_api = "responses"',
    `env_key = "${CODEX_KEY_VARIABLE}"`,
    '',
    `[projects.${JSON.stringify(cwd)}]`,
    'trust_level = "trusted"',
    '',
  ];
  writeFileSync(path.join(configDir, 'config.toml'), toml.join('\n'));
  return {
    env: { CODEX_HOME: configDir, [CODEX_KEY_VARIABLE]: 'sk-scripted-test-key' },
    configDir,
    promptVia: 'argv',
    headless: (prompt, { promptVia = 'argv', extraArgs = [] }) => {
      const args = ['exec', '--json', '--skip-git-repo-check', '-C', cwd, ...extraArgs];
      return promptVia === 'stdin' ? { args: [...args, '-'], input: prompt } : { args: [...args, '--', prompt] };
    },
    finalText: lastAgentMessage,
  };
}

/** The text of the last `agent_message` item in `codex exec --json` output. */
function lastAgentMessage(stdout: string): string | undefined {
  let text: string | undefined;
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const event = JSON.parse(line) as { type?: string; item?: { type?: string; text?: string } };
      if (event.type === 'item.completed' && event.item?.type === 'agent_message') text = event.item.text;
    } catch {
      // Not an event line.
    }
  }
  return text;
}
