import { isBatonError } from '../errors/index.js';
import { getLogger } from '../observability/index.js';
import { ContextManager } from './context-manager.js';
import { createSnippetExtractor, type SnippetExtractor } from './snippets/snippet-extractor.js';
import type { ContextManagerOptions } from './types.js';

let warnedNoSnippets = false;

/**
 * Creates a context manager with tree-sitter snippets. The grammars load once per process (async);
 * pass `extractor` to share one parse cache between managers. Without the optional tree-sitter
 * packages the manager works without code snippets, and says so once in a warning that names the
 * packages to install.
 */
export async function createContextManager(
  options: ContextManagerOptions & { extractor?: SnippetExtractor } = {},
): Promise<ContextManager> {
  const { extractor, ...rest } = options;
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
