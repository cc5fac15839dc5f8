import { type TokenCounter, truncateToTokens } from '../tokens/index.js';

/**
 * Shrinks text to at most `maxTokens` keeping the head, the tail, or both ends around a marker.
 * Pure; the result re-counts to <= maxTokens with the given counter.
 */
export function shrinkText(
  text: string,
  maxTokens: number,
  mode: 'trim-head' | 'trim-tail' | 'head-tail',
  counter: TokenCounter,
  currentTokens = counter.count(text),
): string {
  if (currentTokens <= maxTokens) return text;
  if (maxTokens <= 0) return '';
  // trim-head drops the head (keeps the tail); trim-tail drops the tail (keeps the head).
  if (mode === 'trim-head') return truncateToTokens(text, maxTokens, 'tail');
  if (mode === 'trim-tail') return truncateToTokens(text, maxTokens, 'head');
  const marker = `\n[... ${currentTokens - maxTokens} tokens omitted ...]\n`;
  const room = maxTokens - counter.count(marker) - 2;
  if (room < 8) return truncateToTokens(text, maxTokens, 'head');
  const headTokens = Math.ceil(room * 0.6);
  let head = truncateToTokens(text, headTokens, 'head');
  let tail = truncateToTokens(text, room - headTokens, 'tail');
  let out = head + marker + tail;
  while (counter.count(out) > maxTokens && (head.length > 0 || tail.length > 0)) {
    head = head.slice(0, Math.floor(head.length * 0.9));
    tail = tail.slice(Math.ceil(tail.length * 0.1));
    out = head + marker + tail;
  }
  return out;
}
