import { redactionMarker, SECRET_PATTERNS, SECRET_PREFILTER } from './secret-patterns.js';
import type { RedactResult } from './types.js';

/**
 * Masks the common secret shapes (provider API keys, GitHub/AWS/Slack/Google tokens, JWTs,
 * `Bearer` tokens, private key blocks, `password=`-style assignments, credentials in URLs) with
 * `[REDACTED:<kind>]`. Synchronous and regex-only, so it is cheap enough for every log line; use
 * `redactSecrets` where the secretlint rules should also run. Pure; idempotent (markers are never
 * re-masked).
 *
 * @example
 * maskSecretsSync('curl -H "Authorization: Bearer abc.def.ghi-123456"').text
 * // 'curl -H "Authorization: Bearer [REDACTED:bearer]"'
 */
export function maskSecretsSync(text: string): RedactResult {
  if (text.length === 0 || !SECRET_PREFILTER.test(text)) return { text, count: 0 };
  let out = text;
  let count = 0;
  for (const pattern of SECRET_PATTERNS) {
    pattern.regex.lastIndex = 0;
    if (!pattern.regex.test(out)) continue;
    pattern.regex.lastIndex = 0;
    out = out.replace(pattern.regex, (...args: unknown[]) => {
      count += 1;
      const prefix = pattern.keepGroup === undefined ? '' : String(args[pattern.keepGroup] ?? '');
      const suffix = pattern.keepSuffixGroup === undefined ? '' : String(args[pattern.keepSuffixGroup] ?? '');
      return `${prefix}${redactionMarker(pattern.kind)}${suffix}`;
    });
  }
  return { text: out, count };
}
