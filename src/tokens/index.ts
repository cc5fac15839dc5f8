export { countTokens, o200kCounter, truncateToTokens } from './count-tokens.js';
export { contextLimitFor, DEFAULT_CONTEXT_LIMIT, MODEL_CONTEXT_LIMITS } from './model-limits.js';
export { startsTokenPiece } from './token-boundary.js';
export { encodeTokens, headOfTokens } from './token-ids.js';
export type { TokenCounter } from './count-tokens.js';
