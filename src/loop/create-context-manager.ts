import { isBatonError } from '../errors/index.js';
import { getLogger } from '../observability/index.js';
import { objectWithMethods, parseInput } from '../util/index.js';
import { ContextManager } from './context-manager.js';
import { managerOptionsSchema } from './loop-option-schemas.js';
import { createSnippetExtractor, type SnippetExtractor } from './snippets/snippet-extractor.js';
import type { ContextManagerOptions } from './types.js';

let warnedNoSnippets = false;

/** A ContextManager as the retry and the framework adapters take it (its methods, not its class). */
export const contextManagerSchema = objectWithMethods<ContextManager>(
  ['record', 'recordAll', 'assemble', 'fetchRaw'],
  'a ContextManager (from createContextManager)',
);

const createOptionsSchema = managerOptionsSchema.extend({
  extractor: objectWithMethods<SnippetExtractor>(['outline', 'extract'], 'a SnippetExtractor (from createSnippetExtractor)').optional(),
});

/**
 * Creates a context manager with tree-sitter snippets. The grammars load once per process (async);
 * pass `extractor` to share one parse cache between managers. Without the optional tree-sitter
 * packages the manager works without code snippets, and says so once in a warning that names the
 * packages to install. Small windows work: the answer reserve defaults to a quarter of a window
 * under 16k tokens, and any prompt budget of MIN_BUDGET_TOKENS (512) or more is accepted.
 *
 * @throws BatonError('CONFIG_INVALID') for an unknown or misspelled option (naming the spelling
 *   expected), a value out of range, or numbers that conflict (a budget under 512 tokens says
 *   which `limitTokens` or `reserveTokens` would do).
 * @example
 * const manager = await createContextManager({ limitTokens: 8192 }); // a local 8k model: budget 6,144
 */
export async function createContextManager(
  options: ContextManagerOptions & { extractor?: SnippetExtractor } = {},
): Promise<ContextManager> {
  // Checked before the grammars load; the constructor checks the rest again for `new ContextManager` callers.
  const { extractor, ...rest } = parseInput(createOptionsSchema, options, { what: 'createContextManager options' });
  return new ContextManager(rest, extractor ?? (await defaultExtractor()));
}

async function defaultExtractor(): Promise<SnippetExtractor | undefined> {
  try {
    return await createSnippetExtractor();
  } catch (error) {
    if (!isBatonError(error, 'DEPENDENCY_MISSING')) throw error;
    if (!warnedNoSnippets) getLogger().warn({ packages: error.details.packages }, `${error.message}; continuing without code snippets`);
    warnedNoSnippets = true;
    return undefined;
  }
}
