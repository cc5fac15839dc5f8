import { createHash } from 'node:crypto';

/**
 * The content hash a summary is cached under: sha256 over the summarizer id (model and prompt
 * version), the target length and the text. Any change to one of them is a different summary.
 */
export function summaryCacheKey(summarizerId: string, text: string, targetTokens: number): string {
  return createHash('sha256').update(summarizerId).update('\0').update(String(targetTokens)).update('\0').update(text).digest('hex');
}
