import { ContextManager } from './context-manager.js';
import { createSnippetExtractor, type SnippetExtractor } from './snippets/snippet-extractor.js';
import type { ContextManagerOptions } from './types.js';

/**
 * Creates a context manager with tree-sitter snippets. The grammars load once per process (async);
 * pass `extractor` to share one parse cache between managers.
 */
export async function createContextManager(
  options: ContextManagerOptions & { extractor?: SnippetExtractor } = {},
): Promise<ContextManager> {
  const { extractor, ...rest } = options;
  return new ContextManager(rest, extractor ?? (await createSnippetExtractor()));
}
