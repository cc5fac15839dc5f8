import { isBatonHookCommand } from './hook-targets.js';
import { hookHandlers } from './merge-hook-config.js';

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
export function untrustedCodexEvents(settings: Record<string, unknown>, hooksFile: string, configTomls: readonly string[]): string[] {
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
