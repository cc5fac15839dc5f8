export type { Outcome, Provider, ProviderResult, ProviderRunRequest, TokenUsage } from './types.js';
