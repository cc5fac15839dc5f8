/** A function or class cut from a file view at its syntax boundaries. */
export interface CodeSnippet {
  path: string;
  name: string;
  kind: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  text: string;
}

/** Languages with a tree-sitter grammar in tree-sitter-wasms. */
export type SnippetLanguage = 'typescript' | 'tsx' | 'javascript' | 'python' | 'java' | 'go';
