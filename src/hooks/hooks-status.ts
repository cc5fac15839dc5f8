import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { clientLabel } from './client-specs.js';
import { codexHooksFeatureOn } from './codex-features.js';
import { clientEvents, HOOK_SCOPES, type HookScope, hookTarget, isBatonHookCommand } from './hook-targets.js';
import { hookLogFile } from './hook-paths.js';
import { batonHookEvents, hookHandlers, unknownBatonEvents } from './merge-hook-config.js';
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
  const problems = readOrEmpty(hookLogFile(workspace))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-5);
  return { workspace, active: existsSync(path.join(workspace, '.baton')), scopes, problems };
}

function scopeStatus(client: AgentClient, scope: HookScope, workspace: string, env: NodeJS.ProcessEnv): HookScopeStatus {
  const target = hookTarget(client, scope, workspace, env);
  const wanted = clientEvents(client);
  const status: HookScopeStatus = {
    client,
    label: clientLabel(client),
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

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Codex's snake_case event labels in its trust keys (codex-rs/hooks `hook_event_key_label`). */
const EVENT_LABELS: Readonly<Record<string, string>> = {
  SessionStart: 'session_start',
  SessionEnd: 'session_end',
  UserPromptSubmit: 'user_prompt_submit',
  PreToolUse: 'pre_tool_use',
  PostToolUse: 'post_tool_use',
  PreCompact: 'pre_compact',
  PostCompact: 'post_compact',
  Stop: 'stop',
};

/**
 * The events of Baton's hooks in Codex's `hooks.json` that Codex has no trust record for. Codex
 * keeps trust in config.toml as `[hooks.state."<hooks.json path>:<event label>:<group>:<handler>"]`
 * with a `trusted_hash`, and skips an untrusted hook silently. A record whose hash no longer
 * matches (the hook changed since) cannot be told apart from outside: Codex asks again then.
 */
function untrustedCodexEvents(settings: Record<string, unknown>, hooksFile: string, configTomls: readonly string[]): string[] {
  const trusted = new Set(configTomls.flatMap(trustedKeys));
  const untrusted = new Set<string>();
  for (const { clientEvent: event, groupIndex, hook, hookIndex } of hookHandlers(settings)) {
    const key = `${hooksFile}:${EVENT_LABELS[event] ?? event}:${groupIndex}:${hookIndex}`;
    if (isBatonHookCommand(hook.command, 'codex') && !trusted.has(key)) untrusted.add(event);
  }
  return [...untrusted];
}

/** The `[hooks.state."KEY"]` tables of a config.toml that hold a `trusted_hash` (a line scan: the shape is fixed). */
function trustedKeys(toml: string): string[] {
  const keys: string[] = [];
  let current: string | undefined;
  for (const raw of toml.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\s*hooks\.state\.("(?:[^"\\]|\\.)*"|'[^']*')\s*\]/.exec(line);
    if (header?.[1]) current = unquote(header[1]);
    else if (line.startsWith('[')) current = undefined;
    else if (current !== undefined && /^trusted_hash\s*=\s*["']sha256:/.test(line)) keys.push(current);
  }
  return keys;
}

function unquote(key: string): string {
  if (key.startsWith("'")) return key.slice(1, -1);
  return key.slice(1, -1).replace(/\\(["\\])/g, '$1');
}
