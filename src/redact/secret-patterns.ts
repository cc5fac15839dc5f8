import type { SecretPattern } from './types.js';

/**
 * Common secret shapes, most specific first: a later, broader pattern (an assignment) must not
 * re-mask what an earlier one already replaced, so markers are skipped by `maskSecretsSync`.
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    kind: 'private-key',
    regex: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g,
  },
  { kind: 'anthropic', regex: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai', regex: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'github', regex: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { kind: 'aws', regex: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g },
  { kind: 'slack', regex: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { kind: 'slack-webhook', regex: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g },
  { kind: 'google', regex: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'jwt', regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer', regex: /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{12,}/gi, keepGroup: 1 },
  {
    kind: 'url-credentials',
    regex: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]{3,}(@)/gi,
    keepGroup: 1,
    keepSuffixGroup: 2,
  },
  {
    kind: 'assignment',
    // The key is kept so the reader still knows a password was there; only the value goes.
    regex:
      /\b((?:[A-Za-z0-9]+_)*(?:password|passwd|pwd|secret|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|private[_-]?key|token)["']?\s*[:=]\s*["']?)(?!\[REDACTED)([^\s"',;}{)]{6,})/gi,
    keepGroup: 1,
  },
];

/**
 * Text no pattern above can match fails this one test, so most text is checked in one pass instead
 * of twelve. Every pattern contains one of these literals (case-insensitive here); a new pattern
 * must add its own.
 */
export const SECRET_PREFILTER =
  /-----BEGIN|sk-|gh[pousr]_|github_pat_|A(?:KIA|SIA|GPA|IDA|ROA|NPA|NVA|IPA)|xox[abposre]-|hooks\.slack|AIza|eyJ|bearer|:\/\/|passw|pwd|secret|api[_-]?key|token|private[_-]?key/i;

/** Wraps a secret kind in the marker that replaces it. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}
