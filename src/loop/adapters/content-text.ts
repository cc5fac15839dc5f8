/** Text of a message content that may be a string or a list of parts (`{type:'text', text}`). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return (content as unknown[])
      .map((part) => (typeof part === 'string' ? part : partText(part)))
      .filter((t) => t.length > 0)
      .join('\n');
  }
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

/** Parses tool-call arguments given as a JSON string or an object; anything else becomes `{ input }`. */
export function parseArgs(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { input: parsed };
    } catch {
      return { input: value };
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Tool-call input that is already parsed: an object as it is, anything else as `{ input }`. */
export function asArgs(input: unknown): Record<string, unknown> {
  return input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };
}

function partText(part: unknown): string {
  const text = (part as { text?: unknown } | null | undefined)?.text;
  return typeof text === 'string' ? text : '';
}
