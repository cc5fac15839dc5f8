import type { AgentClient } from './types.js';

/** Where an injected context goes in: the client's event whose output carries `additionalContext`. */
export type InjectionPoint = 'SessionStart' | 'BeforeAgent' | 'AfterTool';

/**
 * The JSON a client reads from a hook that adds context. All three take
 * `hookSpecificOutput.additionalContext` with exit 0: Claude and Codex from SessionStart (Claude
 * shows it as a system reminder, Codex as a developer message), Gemini from SessionStart (before
 * the prompt), BeforeAgent (an extra part of the prompt) and AfterTool (after the tool's result).
 * Nothing else is ever printed: a hook that has nothing to add prints nothing.
 */
export function contextAnswer(client: AgentClient, point: InjectionPoint, text: string): string {
  if (point !== 'SessionStart' && client !== 'gemini') throw new Error(`${client} takes context only at SessionStart`);
  return JSON.stringify({ hookSpecificOutput: { hookEventName: point, additionalContext: text } });
}
