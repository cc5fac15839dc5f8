import type { SnippetLanguage } from './types.js';

const BY_EXTENSION: Record<string, SnippetLanguage> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  py: 'python',
  pyi: 'python',
  java: 'java',
  go: 'go',
};

/** The grammar for a file, from its extension; undefined when none is bundled. */
export function languageForPath(path: string): SnippetLanguage | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext ? BY_EXTENSION[ext] : undefined;
}
