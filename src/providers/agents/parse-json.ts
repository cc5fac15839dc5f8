import type { TokenUsage } from '../types.js';

/** Narrowing helper for JSON read from an agent. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Adds `value`, when there is one, to the usage's `key`. */
export function addTokens(usage: TokenUsage, key: keyof TokenUsage, value: number | undefined): void {
  if (value !== undefined) usage[key] = (usage[key] ?? 0) + value;
}

/** Input and output tokens and their sum, or undefined when neither is known. */
export function sumTokens(input: number | undefined, output: number | undefined): TokenUsage | undefined {
  if (input === undefined && output === undefined) return undefined;
  return { input: input ?? 0, output: output ?? 0, total: (input ?? 0) + (output ?? 0) };
}

/**
 * The JSON object in a CLI's output: the whole text, else the last line or the last `{…}` block
 * that parses (CLIs print warnings around their JSON).
 */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const whole = tryParse(trimmed);
  if (whole !== undefined) return whole;
  const lines = trimmed.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i]!.trimStart().startsWith('{')) continue;
    const block = tryParse(lines.slice(i).join('\n'));
    if (block !== undefined) return block;
  }
  return undefined;
}

/** Every line of JSONL output that is a JSON object; other lines are skipped. */
export function parseJsonLines(text: string): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    const event = tryParse(t);
    if (event !== undefined) events.push(event);
  }
  return events;
}

function tryParse(text: string): Record<string, unknown> | undefined {
  try {
    return asRecord(JSON.parse(text));
  } catch {
    return undefined;
  }
}
