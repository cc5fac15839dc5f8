import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Language, Node } from 'web-tree-sitter';
import { importOptional, isModuleNotFound, missingDependency } from '../../util/index.js';
import type { OutlineEntry } from '../processors/read-file.js';
import type { FileView } from './parse-file-view.js';

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

/** Each has its grammar in tree-sitter-wasms as `out/tree-sitter-<language>.wasm`. */
const LANGUAGES = ['typescript', 'tsx', 'javascript', 'python', 'java', 'go'] as const;
/** Languages with a tree-sitter grammar in tree-sitter-wasms. */
type SnippetLanguage = (typeof LANGUAGES)[number];

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
function languageForPath(path: string): SnippetLanguage | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext ? BY_EXTENSION[ext] : undefined;
}

/** Longest snippet kept, in lines; longer definitions keep their first lines. @default 40 */
export const DEFAULT_SNIPPET_MAX_LINES = 40;

/** Cuts code at function/class boundaries. Parsing is synchronous once the grammars are loaded. */
export interface SnippetExtractor {
  /** Definitions in `code` (which starts at `startLine`), outermost first. */
  outline: (path: string, code: string, startLine: number) => OutlineEntry[];
  /** Complete definitions inside a file view, each with its own lines. */
  extract(view: FileView): CodeSnippet[];
  /** How many times code was actually parsed (cache misses). */
  readonly parseCount: number;
}

const DEFINITIONS = new Set([
  'function_definition',
  'class_definition',
  'decorated_definition',
  'function_declaration',
  'generator_function_declaration',
  'class_declaration',
  'abstract_class_declaration',
  'method_definition',
  'interface_declaration',
  'enum_declaration',
  'type_alias_declaration',
  'method_declaration',
  'constructor_declaration',
  'record_declaration',
  'type_declaration',
]);
const CONTAINERS = new Set([
  'class_body',
  'block',
  'declaration_list',
  'export_statement',
  'program',
  'module',
  'source_file',
  'interface_body',
  'enum_body',
]);

type TreeSitter = typeof import('web-tree-sitter');

/** web-tree-sitter and tree-sitter-wasms (about 56 MB) are optional peers: only snippets need them. */
const TREE_SITTER = { feature: 'Code snippets in the agent-loop context', packages: ['web-tree-sitter', 'tree-sitter-wasms'] } as const;

let loaded: Promise<{ treeSitter: TreeSitter; languages: Map<SnippetLanguage, Language> }> | undefined;

/**
 * Imports web-tree-sitter and loads every bundled grammar, once per process, only when snippets
 * are first asked for. Throws BatonError('DEPENDENCY_MISSING') naming the packages to install
 * when the optional tree-sitter packages are absent.
 */
function loadTreeSitter(): Promise<{ treeSitter: TreeSitter; languages: Map<SnippetLanguage, Language> }> {
  loaded ??= (async () => {
    const treeSitter = await importOptional<TreeSitter>('web-tree-sitter', TREE_SITTER);
    await treeSitter.Parser.init();
    const require = createRequire(import.meta.url);
    const languages = new Map<SnippetLanguage, Language>();
    for (const name of LANGUAGES) {
      let wasm: string;
      try {
        wasm = require.resolve(`tree-sitter-wasms/out/tree-sitter-${name}.wasm`);
      } catch (error) {
        throw isModuleNotFound(error) ? missingDependency(TREE_SITTER, error) : error;
      }
      languages.set(name, await treeSitter.Language.load(wasm));
    }
    return { treeSitter, languages };
  })();
  // A failed load (a package missing) is not cached, so installing it needs no restart.
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/**
 * Loads the grammars (once per process) and returns an extractor with its own cache of parsed
 * outlines keyed by a hash of the code, so a file seen twice is parsed once.
 */
export async function createSnippetExtractor(): Promise<SnippetExtractor> {
  const { treeSitter, languages } = await loadTreeSitter();
  const parser = new treeSitter.Parser();
  const cache = new Map<string, OutlineEntry[]>();
  let current: SnippetLanguage | undefined;
  let parseCount = 0;

  const outline = (path: string, code: string, startLine: number): OutlineEntry[] => {
    const language = languageForPath(path);
    const grammar = language ? languages.get(language) : undefined;
    if (!language || !grammar) return [];
    const key = createHash('sha1').update(language).update('\0').update(code).digest('base64');
    let entries = cache.get(key);
    if (!entries) {
      if (current !== language) parser.setLanguage(grammar);
      current = language;
      // A window that opens inside a body holds no complete definition before the first
      // definition line; parsing from there skips costly error recovery (and finds more).
      const skip = firstDefinitionLine(code, language);
      const from = skip > 0 ? code.split('\n').slice(skip).join('\n') : code;
      const tree = parser.parse(language === 'python' ? dedent(from) : from);
      parseCount += 1;
      entries = [];
      if (tree) {
        collect(tree.rootNode, entries, 0);
        tree.delete();
      }
      if (skip > 0) entries = entries.map((e) => ({ ...e, startLine: e.startLine + skip, endLine: e.endLine + skip }));
      cache.set(key, entries);
    }
    return entries.map((e) => ({ ...e, startLine: e.startLine + startLine - 1, endLine: e.endLine + startLine - 1 }));
  };

  const extract = (view: FileView): CodeSnippet[] => {
    const entries = outline(view.path, view.lines.join('\n'), view.startLine);
    const snippets: CodeSnippet[] = [];
    for (const entry of entries) {
      // A long class is represented by its methods, which the outline also lists.
      const span = entry.endLine - entry.startLine + 1;
      if (/class|interface/.test(entry.kind) && span > DEFAULT_SNIPPET_MAX_LINES) continue;
      if (snippets.some((s) => s.startLine <= entry.startLine && s.endLine >= entry.endLine)) continue;
      const from = entry.startLine - view.startLine;
      const to = Math.min(entry.endLine, entry.startLine + DEFAULT_SNIPPET_MAX_LINES - 1) - view.startLine + 1;
      const text = view.lines.slice(from, to).join('\n');
      snippets.push({
        path: view.path,
        name: entry.name,
        kind: entry.kind,
        startLine: entry.startLine,
        endLine: view.startLine + to - 1,
        text,
      });
    }
    return snippets;
  };

  return {
    outline,
    extract,
    get parseCount() {
      return parseCount;
    },
  };
}

/** Records definitions that parsed without errors, with 1-based lines relative to the code. */
function collect(node: Node, out: OutlineEntry[], depth: number): void {
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (DEFINITIONS.has(child.type) || isArrowConst(child)) {
      const target = child.type === 'decorated_definition' ? (child.childForFieldName('definition') ?? child) : child;
      if (!child.hasError) {
        out.push({
          name: nameOf(target),
          kind: kindOf(target.type),
          startLine: child.startPosition.row + 1,
          endLine: child.endPosition.row + 1,
        });
      }
      if (depth < 2) collect(target.childForFieldName('body') ?? target, out, depth + 1);
    } else if (CONTAINERS.has(child.type) || child.type === 'ERROR') {
      collect(child, out, depth);
    }
  }
}

function isArrowConst(node: Node): boolean {
  if (node.type !== 'lexical_declaration') return false;
  const value = node.namedChildren[0]?.childForFieldName('value');
  return value?.type === 'arrow_function' || value?.type === 'function_expression' || value?.type === 'function';
}

function nameOf(node: Node): string {
  const direct = node.childForFieldName('name');
  if (direct) return direct.text;
  const declarator = node.namedChildren[0];
  return declarator?.childForFieldName('name')?.text ?? '(anonymous)';
}

function kindOf(type: string): string {
  if (type.includes('class')) return 'class';
  if (type.includes('interface')) return 'interface';
  if (type.includes('method') || type.includes('constructor')) return 'method';
  if (type.includes('type') || type.includes('enum') || type.includes('record')) return 'type';
  return 'function';
}

/** Every Python definition starts with one of these (a decorator, def, async def or class). */
const PYTHON_DEFINITION_START = /^\s*(?:@|def\s|async\s+def\s|class\s)/;

/**
 * Index of the first line that can start a definition, or 0. Only Python windows are cut: there
 * the start of a definition is unambiguous, while in brace languages a loose pattern could cut a
 * definition's first line.
 */
function firstDefinitionLine(code: string, language: SnippetLanguage): number {
  if (language !== 'python') return 0;
  const lines = code.split('\n', 400);
  for (let i = 0; i < lines.length; i++) if (PYTHON_DEFINITION_START.test(lines[i] as string)) return i;
  return 0;
}

/** Python windows can start inside a block; removing the shared indent lets them parse. */
function dedent(code: string): string {
  const lines = code.split('\n');
  let indent = Number.POSITIVE_INFINITY;
  for (const line of lines) if (line.trim()) indent = Math.min(indent, line.length - line.trimStart().length);
  return indent > 0 && Number.isFinite(indent) ? lines.map((l) => l.slice(indent)).join('\n') : code;
}
