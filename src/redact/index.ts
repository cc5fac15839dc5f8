export { findSecrets } from './find-secrets.js';
export { maskSecretsSync } from './mask-secrets-sync.js';
export { redactSecrets, redactValue } from './redact-secrets.js';
export { redactValueSync } from './redact-value-sync.js';
export { isSecretName } from './secret-name.js';
export { redactionMarker, SECRET_PATTERNS } from './secret-patterns.js';
export type { RedactResult, RedactValueResult, SecretRange } from './types.js';
