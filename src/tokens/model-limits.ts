/** Context window sizes in tokens, by model-name prefix (longest prefix wins). */
export const MODEL_CONTEXT_LIMITS: Readonly<Record<string, number>> = {
  'gpt-4o': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-4': 8_192,
  'gpt-5': 400_000,
  o3: 200_000,
  o4: 200_000,
  'claude-': 200_000,
  'gemini-1.5': 1_048_576,
  'gemini-2': 1_048_576,
  'gemini-3': 1_048_576,
  'qwen-plus': 131_072,
  qwen: 32_768,
  llama: 128_000,
  mistral: 32_768,
};

/**
 * The one default context window, in tokens: for a model not in MODEL_CONTEXT_LIMITS and for a
 * context manager given no model. 128,000 is the window of the current general-purpose families
 * (the smaller ones are listed above by name). Set `limitTokens` (loop) or `maxContextTokens`
 * (panel) for a smaller model that is not listed.
 * @default 128000
 */
export const DEFAULT_CONTEXT_LIMIT = 128_000;

/** The context window of a model, by longest matching name prefix, else DEFAULT_CONTEXT_LIMIT. */
export function contextLimitFor(model: string | undefined, overrides: Record<string, number> = {}): number {
  if (!model) return DEFAULT_CONTEXT_LIMIT;
  const table = { ...MODEL_CONTEXT_LIMITS, ...overrides };
  let best: string | undefined;
  for (const prefix of Object.keys(table)) {
    if (model.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? DEFAULT_CONTEXT_LIMIT : (table[best] ?? DEFAULT_CONTEXT_LIMIT);
}
