import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_SPECS } from './client-specs.js';
import { codexHooksFeatureOn } from './codex-features.js';
import { untrustedCodexEvents } from './codex-trust.js';
import { clientEvents, HOOK_SCOPES, type HookScope, hookTarget } from './hook-targets.js';
import { hookLogFile } from './hook-paths.js';
import { batonHookEvents, unknownBatonEvents } from './merge-hook-config.js';
import type { AgentClient } from './types.js';
import { describeJsonError } from '../util/index.js';

/** What `baton hooks status` reports for one client and scope. */
export interface HookScopeStatus {
  client: AgentClient;
  label: string;
  scope: HookScope;
  settingsFile: string;
  /** Baton's events found in the settings (client spelling). */
  installed: string[];
  /** Baton's events missing from them. */
  missing: string[];
  /** The settings file exists but is not JSON. */
  unreadable?: string;
  /** Codex: `[features] hooks = true` in config.toml. */
  featureOn?: boolean;
  /** Codex: Baton's events that have no trust record in config.toml (`[hooks.state]`): Codex skips them silently. */
  untrusted?: string[];
  /** `baton hook` commands whose event Baton does not know (a typo: they do nothing). */
  unknownEvents: Array<{ clientEvent: string; event: string }>;
}

export interface HooksStatus {
  workspace: string;
  /** The workspace has `.baton/`: hooks act here. */
  active: boolean;
  scopes: HookScopeStatus[];
  /** The last problems the hooks logged in this workspace (newest last). */
  problems: string[];
}

/** Reads where each client's Baton hooks are installed, whether any are missing, and the last problems logged. */
export function hooksStatus(clients: readonly AgentClient[], workspace: string, env: NodeJS.ProcessEnv): HooksStatus {
  const scopes: HookScopeStatus[] = [];
  for (const client of clients) for (const scope of HOOK_SCOPES) scopes.push(scopeStatus(client, scope, workspace, env));
  return { workspace, active: existsSync(path.join(workspace, '.baton')), scopes, problems: lastProblems(hookLogFile(workspace), 5) };
}

function scopeStatus(client: AgentClient, scope: HookScope, workspace: string, env: NodeJS.ProcessEnv): HookScopeStatus {
  const target = hookTarget(client, scope, workspace, env);
  const wanted = clientEvents(client);
  const status: HookScopeStatus = {
    client,
    label: CLIENT_SPECS[client].label,
    scope,
    settingsFile: target.settingsFile,
    installed: [],
    missing: wanted,
    unknownEvents: [],
  };
  if (target.featureFile) status.featureOn = codexHooksFeatureOn(readOrEmpty(target.featureFile));
  const text = readOrEmpty(target.settingsFile);
  if (text.trim() === '') return status;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ...status, unreadable: describeJsonError(text, error) };
  }
  if (typeof json !== 'object' || json === null) return status;
  const settings = json as Record<string, unknown>;
  const found = new Set(batonHookEvents(settings, client));
  if (client === 'codex')
    status.untrusted = untrustedCodexEvents(settings, target.settingsFile, codexConfigs(target.featureFile, workspace, env));
  return {
    ...status,
    installed: wanted.filter((event) => found.has(event)),
    missing: wanted.filter((event) => !found.has(event)),
    unknownEvents: unknownBatonEvents(settings),
  };
}

/** Where Codex keeps hook trust: the user's config.toml ($CODEX_HOME), and the scope's own. */
function codexConfigs(featureFile: string | undefined, workspace: string, env: NodeJS.ProcessEnv): string[] {
  const user = hookTarget('codex', 'user', workspace, env).featureFile;
  return [...new Set([user, featureFile ?? user])].map((file) => readOrEmpty(file ?? ''));
}

function lastProblems(file: string, count: number): string[] {
  return readOrEmpty(file)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-count);
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
