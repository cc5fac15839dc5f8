import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLIENT_SPECS } from './client-specs.js';
import type { AgentClient, HookEvent } from './types.js';

/** Project: the workspace's own settings (shared with the team); user: every project of this user. */
export type HookScope = 'project' | 'user';
export const HOOK_SCOPES: readonly HookScope[] = ['project', 'user'];

/** Where a client's hook configuration lives for a scope. */
export interface HookTarget {
  /** The JSON file holding the `hooks` table. */
  settingsFile: string;
  /** Codex: the config.toml that must enable `[features] hooks`. */
  featureFile?: string;
}

/**
 * Claude Code: `.claude/settings.json` (project) or `~/.claude/settings.json`; Gemini CLI:
 * `.gemini/settings.json` or `~/.gemini/settings.json`; Codex CLI: `.codex/hooks.json` and
 * `.codex/config.toml` (project; Codex loads them only in a project it trusts) or
 * `$CODEX_HOME/hooks.json` and `$CODEX_HOME/config.toml` (CODEX_HOME defaults to ~/.codex).
 */
export function hookTarget(client: AgentClient, scope: HookScope, workspace: string, env: NodeJS.ProcessEnv): HookTarget {
  const home = env.HOME ?? os.homedir();
  if (client === 'codex') {
    const dir = scope === 'project' ? path.join(workspace, '.codex') : (env.CODEX_HOME ?? path.join(home, '.codex'));
    return { settingsFile: path.join(dir, 'hooks.json'), featureFile: path.join(dir, 'config.toml') };
  }
  const folder = client === 'claude' ? '.claude' : '.gemini';
  return { settingsFile: path.join(scope === 'project' ? workspace : home, folder, 'settings.json') };
}

/**
 * The command a hook runs. The project's own install of Baton (node_modules/.bin/baton) when
 * there is one, so no global install is needed: for a project scope through the client's project
 * folder variable (`$CLAUDE_PROJECT_DIR`, Gemini's `$GEMINI_PROJECT_DIR`), which keeps a committed
 * settings file valid on every clone; Codex has no such variable, so its path is absolute. Without
 * a project install, the absolute path of the Baton running this install (`bin`).
 */
export function hookCommand(client: AgentClient, scope: HookScope, workspace: string, bin: string, event: HookEvent): string {
  const local = path.join(workspace, 'node_modules', '.bin', 'baton');
  const args = `hook ${event} --client ${client}`;
  if (existsSync(local) && scope === 'project' && client === 'claude') return `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/baton ${args}`;
  // Gemini substitutes the variable itself, already shell-quoted: it must stay outside quotes.
  if (existsSync(local) && scope === 'project' && client === 'gemini') return `$GEMINI_PROJECT_DIR/node_modules/.bin/baton ${args}`;
  return `${shellQuote(existsSync(local) ? local : bin)} ${args}`;
}

/** Recognizes a command Baton wrote (any of the forms above, for this client). */
export function isBatonHookCommand(command: unknown, client: AgentClient): boolean {
  return (
    typeof command === 'string' &&
    /(?:^|[/\s"'])baton(?:\.js)?["']?\s+hook\s+[a-z-]+\s+--client\s+/.test(command) &&
    command.includes(`--client ${client}`)
  );
}

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The client's events Baton registers, in its settings' spelling. */
export function clientEvents(client: AgentClient): string[] {
  return [...new Set(CLIENT_SPECS[client].bindings.map((binding) => binding.clientEvent))];
}
