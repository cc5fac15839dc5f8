import { isRecord } from '../is-record.js';

/** What Claude Code wraps around a prompt that the user did not type (IDE context, reminders). */
const INJECTED =
  /<(ide_opened_file|ide_selection|system-reminder|local-command-caveat|local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>[\s\S]*?<\/\1>/g;
const COMMAND = /<command-name>([\s\S]*?)<\/command-name>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
const BASH_INPUT = /<bash-input>([\s\S]*?)<\/bash-input>/;

/** The marker Claude Code writes as a user message when the user stops a turn. */
export const INTERRUPT_MARKER = /^\[Request interrupted by user/;

/**
 * The prompt the user typed, from a Claude Code user text: IDE context and reminders removed, a
 * slash command as `/name args`, a `!` shell line as `! command`. Empty when nothing is left. Pure.
 */
export function claudePromptText(text: string): string {
  const command = COMMAND.exec(text);
  if (command) {
    const name = (command[1] ?? '').trim();
    const args = (COMMAND_ARGS.exec(text)?.[1] ?? '').trim();
    return `${name.startsWith('/') ? name : `/${name}`}${args ? ` ${args}` : ''}`;
  }
  const bash = BASH_INPUT.exec(text);
  if (bash) return `! ${(bash[1] ?? '').trim()}`;
  return text.replace(INJECTED, '').trim();
}

/** The text of a message's content: a string, or the text blocks of a block array joined. */
export function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content as unknown[]) {
    if (typeof block === 'string') parts.push(block);
    else if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
    else if (isRecord(block) && block.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}
