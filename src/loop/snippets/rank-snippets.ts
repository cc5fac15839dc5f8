import type { CodeSnippet } from './snippet-extractor.js';

/** A snippet with the turn it was last seen in. */
export interface SnippetEntry {
  snippet: CodeSnippet;
  turn: number;
  /** Token count of the rendered snippet, filled in the first time it is measured. */
  tokens?: number;
}

/** What ranking needs to know about the loop. */
export interface RankSnippetsOptions {
  currentTurn: number;
  /** True when the loop edited this function (file tracker). */
  isEdited: (path: string, name: string) => boolean;
  /** True when the loop edited this file. */
  isFileEdited: (path: string) => boolean;
  /** How often the conversation mentions a name. */
  mentions: (name: string) => number;
}

/** Orders snippets by recency, edits and mentions, best first. Pure; the input is not changed. */
export function rankSnippets(entries: readonly SnippetEntry[], options: RankSnippetsOptions): SnippetEntry[] {
  const score = (e: SnippetEntry) => {
    const age = Math.max(0, options.currentTurn - e.turn);
    let s = 2 / (1 + age);
    if (options.isEdited(e.snippet.path, e.snippet.name)) s += 3;
    else if (options.isFileEdited(e.snippet.path)) s += 0.5;
    s += 0.4 * Math.min(5, options.mentions(e.snippet.name));
    return s;
  };
  return entries
    .map((e) => ({ e, s: score(e) }))
    .sort((a, b) => b.s - a.s || b.e.turn - a.e.turn || a.e.snippet.startLine - b.e.snippet.startLine)
    .map(({ e }) => e);
}

/** The snippet as it appears in the prompt: fenced, marked `path:start-end`. */
export function renderSnippet(snippet: CodeSnippet): string {
  return `\`\`\`${snippet.path}:${snippet.startLine}-${snippet.endLine}\n${snippet.text}\n\`\`\``;
}
