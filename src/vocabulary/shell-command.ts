import { summarizePatch } from './patch-paths.js';
import type { ToolDescription } from './types.js';

const SHELLS = /^(?:\/\S*\/)?(?:ba|z|k|da)?sh$/;
const POWERSHELLS = /^(?:pwsh|powershell)(?:\.exe)?$/i;
const READ_VERBS = new Set(['cat', 'head', 'tail', 'less', 'more', 'nl', 'bat', 'type', 'get-content', 'gc']);
const SEARCH_VERBS = new Set(['grep', 'egrep', 'rg', 'ag', 'ack', 'find', 'fd', 'select-string', 'locate']);
const LIST_VERBS = new Set(['ls', 'tree', 'dir', 'get-childitem', 'gci', 'exa', 'eza']);
const FILTERS = new Set([
  'head',
  'tail',
  'grep',
  'rg',
  'sort',
  'uniq',
  'wc',
  'cut',
  'awk',
  'tr',
  'less',
  'more',
  'nl',
  'jq',
  'cat',
  'column',
  'sed',
]);

/**
 * The command a shell tool ran, as one string: a string argument as it is; an argv array (Codex
 * `shell`, `local_shell_call`) unwrapped from `bash -lc "…"` / `pwsh -Command …`, else joined the
 * way a shell would read it. Pure.
 */
export function shellCommandOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const argv = value.map(String);
  const shell = (argv[0] ?? '').replace(/^.*[\\/]/, '');
  if (SHELLS.test(argv[0] ?? '') || SHELLS.test(shell)) {
    const flag = argv.findIndex((a, i) => i > 0 && /^-\w*c$/.test(a));
    if (flag > 0 && argv[flag + 1] !== undefined) return (argv[flag + 1] as string).trim();
  }
  if (POWERSHELLS.test(shell)) {
    const flag = argv.findIndex((a) => /^-(c|command)$/i.test(a));
    if (flag > 0 && argv[flag + 1] !== undefined)
      return argv
        .slice(flag + 1)
        .join(' ')
        .trim();
  }
  if (argv[0] === 'apply_patch' && argv.length === 2) return `apply_patch <<'PATCH'\n${argv[1] as string}\nPATCH`;
  return argv.map(quoteWord).join(' ');
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * What a shell command does, read from its words: an `apply_patch` (paths from the patch), an
 * in-place `sed -i` or a redirect into a file (edit/write), a read (`cat`, `head`, `sed -n`), a
 * search (`grep`, `rg`, `find`), a listing (`ls`); anything else, or several commands chained, is
 * `shell`. `cd DIR &&` prefixes are skipped. The command is always kept whole in `command`. Pure.
 */
export function describeShellCommand(command: string): ToolDescription {
  const base: ToolDescription = { kind: 'shell', key: keyOfCommand(command), paths: [], command };
  if (/\*\*\* Begin Patch/.test(command) && /(^|[\s;&|(])apply_patch\b/.test(command)) {
    const patch = summarizePatch(command);
    if (patch) return { ...base, kind: patch.kind, key: `apply_patch ${patch.paths.join(', ')}`, paths: patch.paths, change: patch.change };
  }
  const segments = splitTopLevel(command).filter((s) => !/^(cd|pushd|set-location)\s/i.test(s) && s.length > 0);
  if (segments.length !== 1) return base;
  const pipeline = (segments[0] as string).split(/\s+\|\s+/);
  const words = wordsOf(pipeline[0] as string);
  const verb = (words[0] ?? '').toLowerCase();
  const args = words.slice(1).filter((w) => !w.startsWith('-'));
  const onlyFilters = pipeline.slice(1).every((p) => FILTERS.has((wordsOf(p)[0] ?? '').toLowerCase()));
  const first = pipeline[0] as string;
  const sedInPlace = /^sed\s+(?:-\w*\s+)*-i\S*\s+(?:-e\s+)?(?:'[^']*'|"[^"]*"|\S+)\s+(.+)$/.exec(first.trim());
  if (verb === 'sed' && sedInPlace?.[1]) return { ...base, kind: 'edit', paths: wordsOf(sedInPlace[1]).filter((w) => !w.startsWith('-')) };
  const redirect = /(?:^|[^\d&>])>>?\s*([^\s&|;>]+)\s*$|\btee\s+(?:-a\s+)?([^\s&|;]+)\s*$/.exec(segments[0] as string);
  const target = redirect?.[1] ?? redirect?.[2];
  if (target && target !== '/dev/null' && /^(echo|printf|cat|tee)$/.test(verb)) return { ...base, kind: 'write', paths: [unquote(target)] };
  if (!onlyFilters) return base;
  if (verb === 'sed' && /\s-n\s/.test(` ${first} `)) return { ...base, kind: 'read', paths: args.slice(1).map(unquote) };
  if (READ_VERBS.has(verb) && args.length > 0 && !/[<>]/.test(first))
    return { ...base, kind: 'read', paths: args.filter(isPathLike).map(unquote) };
  if (SEARCH_VERBS.has(verb) || (verb === 'git' && words[1] === 'grep')) return { ...base, kind: 'search' };
  if (LIST_VERBS.has(verb)) return { ...base, kind: 'search', listing: true, paths: args.filter(isPathLike).map(unquote) };
  return base;
}

/** The first line of a command, at most 160 characters (cut at a word). */
export function keyOfCommand(command: string): string {
  const lines = command.trim().split('\n');
  const first = (lines[0] ?? '').trim();
  const line = lines.length > 1 ? `${first} …` : first;
  return clipWords(line, 160);
}

/** Cuts text at a word boundary to at most `max` characters, marking the cut with `…`. Pure. */
export function clipWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** Splits on `&&`, `||` and `;` outside quotes; the first line only (heredocs and scripts stay shell). */
function splitTopLevel(command: string): string[] {
  const text = command.trim();
  if (text.includes('\n')) return [text, ''];
  const out: string[] = [];
  let quote: string | undefined;
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
      current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === ';' || ((c === '&' || c === '|') && text[i + 1] === c)) {
      out.push(current.trim());
      current = '';
      if (c !== ';') i += 1;
    } else current += c;
  }
  out.push(current.trim());
  return out;
}

function wordsOf(text: string): string[] {
  return (text.trim().match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((w) => w);
}

function unquote(word: string): string {
  return word.replace(/^["']|["']$/g, '');
}

function isPathLike(word: string): boolean {
  return !/^\d+$/.test(word) && !/[*?]/.test(word);
}
