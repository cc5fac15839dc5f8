import type { ToolDescription } from './types.js';

/**
 * A call in one short line, the form an old call's arguments shrink to: `Edit src/a.py (-3 +12
 * lines)`, `Bash npm test`, `TodoWrite 4 items, 2 open`; the tool's name alone when it has no key
 * argument. Pure.
 */
export function formatToolCall(name: string, description: ToolDescription): string {
  const key = description.key ? ` ${description.key.replace(/\s+/g, ' ')}` : '';
  const change = description.change;
  const size =
    change && (description.kind === 'edit' || description.kind === 'write') ? ` (-${change.removed} +${change.added} lines)` : '';
  return `${name}${key}${size}`;
}
