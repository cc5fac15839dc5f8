export { maskSecretsSync } from './mask-secrets-sync.js';
export { DEFAULT_BATCH_CHARS, redactSecrets, redactSecretsMany, redactValue } from './redact-secrets.js';
export { redactionMarker, SECRET_PATTERNS } from './secret-patterns.js';
export type { RedactManyResult, RedactResult, RedactValueResult, SecretPattern } from './types.js';
