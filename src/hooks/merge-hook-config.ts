import { CLIENT_SPECS } from './client-specs.js';
import { isBatonHookCommand } from './hook-targets.js';
import { isRecord } from './parse-hook-input.js';
import { type AgentClient, HOOK_EVENTS, type HookEvent } from './types.js';

type Json = Record<string, unknown>;

/**
 * The settings with Baton's hooks for `client` in place: every earlier Baton entry of that client
 * removed (a re-install, or an older set of events), then one matcher group per binding appended
 * to its event. Everything else (the user's own hooks and settings) is kept as it was. Pure; the
 * same input gives the same output, so installing twice changes nothing the second time.
 */
export function withBatonHooks(settings: Json, client: AgentClient, commandFor: (event: HookEvent) => string): Json {
  const next = withoutBatonHooks(settings, client);
  const hooks = { ...((next.hooks as Json | undefined) ?? {}) };
  for (const binding of CLIENT_SPECS[client].bindings) {
    const hook: Json = { type: 'command', command: commandFor(binding.event), timeout: binding.timeout };
    // Gemini lists hooks by name in its /hooks panel and warnings.
    if (client === 'gemini') hook.name = `baton-${binding.event}`;
    const existing = hooks[binding.clientEvent];
    hooks[binding.clientEvent] = [...(Array.isArray(existing) ? (existing as unknown[]) : []), { matcher: '', hooks: [hook] }];
  }
  return { ...next, hooks };
}

/** The settings without any Baton hook of `client`; groups and events left empty are dropped. */
export function withoutBatonHooks(settings: Json, client: AgentClient): Json {
  if (!isRecord(settings.hooks)) return { ...settings };
  const hooks: Json = {};
  for (const [event, value] of Object.entries(settings.hooks)) {
    if (!Array.isArray(value)) {
      hooks[event] = value;
      continue;
    }
    const groups = value
      .map((group: unknown) => {
        if (!isRecord(group) || !Array.isArray(group.hooks)) return group;
        const kept = group.hooks.filter((hook: unknown) => !(isRecord(hook) && isBatonHookCommand(hook.command, client)));
        return kept.length === group.hooks.length ? group : kept.length === 0 ? undefined : { ...group, hooks: kept };
      })
      .filter((group) => group !== undefined);
    if (groups.length > 0) hooks[event] = groups;
  }
  const next: Json = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return next;
}

/**
 * Every hook handler of the settings' `hooks` table (an object), with its client event and its
 * group's and its own position there (Codex keys its trust by them).
 */
export function* hookHandlers(settings: Json): Generator<{ clientEvent: string; groupIndex: number; hook: Json; hookIndex: number }> {
  if (!isRecord(settings.hooks)) return;
  for (const [clientEvent, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const [groupIndex, group] of groups.entries()) {
      if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
      for (const [hookIndex, hook] of group.hooks.entries()) if (isRecord(hook)) yield { clientEvent, groupIndex, hook, hookIndex };
    }
  }
}

/** The client events of Baton's hooks for `client` in the settings (one per hook found). */
export function batonHookEvents(settings: Json, client: AgentClient): string[] {
  return [...hookHandlers(settings)].filter(({ hook }) => isBatonHookCommand(hook.command, client)).map(({ clientEvent }) => clientEvent);
}

/**
 * The `baton hook` commands in the settings whose event Baton does not know (a hand-edited
 * `baton hook SessionStart`): such a hook does nothing, so `hooks status` names it.
 */
export function unknownBatonEvents(settings: Json): Array<{ clientEvent: string; event: string }> {
  const found: Array<{ clientEvent: string; event: string }> = [];
  for (const { clientEvent, hook } of hookHandlers(settings)) {
    const event = typeof hook.command === 'string' ? BATON_HOOK_EVENT.exec(hook.command)?.[1] : undefined;
    if (event !== undefined && !(HOOK_EVENTS as readonly string[]).includes(event)) found.push({ clientEvent, event });
  }
  return found;
}

/** The event of a `baton hook EVENT` command, in any of the forms Baton writes or a person types. */
const BATON_HOOK_EVENT = /(?:^|[/\s"'])baton(?:\.js)?["']?\s+hook\s+([^\s"';&|]+)/;
