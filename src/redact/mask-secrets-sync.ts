import { findSecrets } from './find-secrets.js';
import { redactionMarker } from './secret-patterns.js';
import type { RedactResult } from './types.js';

/**
 * Masks every secret Baton's one rule set knows (SECRET_PATTERNS: the kinds of secretlint's
 * recommended preset and Baton's own) with `[REDACTED:<kind>]`, each secret exactly once.
 * Synchronous and regex-only, so it is cheap enough for every hook, log line and ledger write.
 * Pure; idempotent (markers are never re-masked).
 *
 * @example
 * maskSecretsSync('curl -H "Authorization: Bearer abc.def.ghi-123456"').text
 * // 'curl -H "Authorization: Bearer [REDACTED:bearer]"'
 */
export function maskSecretsSync(text: string): RedactResult {
  const ranges = findSecrets(text);
  if (ranges.length === 0) return { text, count: 0 };
  let out = '';
  let cursor = 0;
  for (const range of ranges) {
    out += text.slice(cursor, range.from) + redactionMarker(range.kind);
    cursor = range.to;
  }
  return { text: out + text.slice(cursor), count: ranges.length };
}
