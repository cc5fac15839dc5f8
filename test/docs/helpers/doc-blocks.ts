/**
 * The TypeScript a user reads: every ```ts / ```typescript block of README.md and docs/*.md, and
 * every TypeScript file of examples/, turned into files a consumer project's tsc compiles. A block
 * that is only a fragment (it shows part of a call, not a program) is left out when the line just
 * above its fence is `<!-- docs-compile: fragment (why) -->`; the reason is required, so the
 * marker is used only where a block truly cannot stand alone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The marker (an HTML comment, invisible on GitHub) that leaves the next block out. */
export const FRAGMENT_MARKER = /^<!--\s*docs-compile:\s*fragment\s*\((.+)\)\s*-->$/;
const FENCE_OPEN = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript)\s*$/;
const ANY_FENCE = /^\s*(`{3,}|~{3,})/;

export interface DocBlock {
  /** The markdown file, relative to the repository (`docs/loop.md`). */
  file: string;
  /** 1-based line of the block's first code line in that file. */
  line: number;
  source: string;
  /** The reason given by a fragment marker; undefined when the block is compiled. */
  fragment?: string;
}

/** The ts/typescript blocks of one markdown text, in order. */
export function extractBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const fence = ANY_FENCE.exec(lines[i] as string);
    if (!fence) continue;
    const marker = (fence[1] as string)[0] as string;
    const close = new RegExp(`^\\s*${marker === '`' ? '`' : '~'}{${(fence[1] as string).length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end] as string)) end += 1;
    const open = FENCE_OPEN.exec(lines[i] as string);
    if (open) {
      const indent = (open[1] as string).length;
      const body = lines.slice(i + 1, end).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)));
      const reason = FRAGMENT_MARKER.exec((lines[i - 1] ?? '').trim())?.[1];
      blocks.push({ file, line: i + 2, source: `${body.join('\n')}\n`, ...(reason ? { fragment: reason } : {}) });
    }
    i = end;
  }
  return blocks;
}

/** README.md and every docs/*.md of the repository at `root`. */
export function markdownFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** Every .ts/.mts file under examples/, relative to `root`. */
export function exampleFiles(root: string, dir = 'examples'): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return exampleFiles(root, rel);
      return /\.m?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [rel] : [];
    });
}

/** A compiled file and where its lines come from, to point a tsc error back at the markdown. */
export interface CompiledFile {
  /** Its path in the consumer project's run folder. */
  name: string;
  source: string;
  /** The file a reader opens: the markdown, or the example itself. */
  origin: string;
  /** Line of `origin` that is line 1 of this file. */
  firstLine: number;
}

/**
 * The files to compile: each block as `doc-blocks/<file>-L<line>.ts` (ended by `export {}`, so a
 * block with top-level await is a module even without an import), each example at its own path.
 */
export function filesToCompile(root: string): { files: CompiledFile[]; fragments: DocBlock[] } {
  const files: CompiledFile[] = [];
  const fragments: DocBlock[] = [];
  for (const file of markdownFiles(root)) {
    for (const block of extractBlocks(file, readFileSync(path.join(root, file), 'utf8'))) {
      if (block.fragment) {
        fragments.push(block);
        continue;
      }
      const name = `doc-blocks/${file.replace(/[/.]/g, '_')}-L${block.line}.ts`;
      files.push({ name, source: `${block.source}export {};\n`, origin: file, firstLine: block.line });
    }
  }
  for (const file of exampleFiles(root)) {
    files.push({ name: file, source: readFileSync(path.join(root, file), 'utf8'), origin: file, firstLine: 1 });
  }
  return { files, fragments };
}

/** tsc's `name(line,col): error …` lines rewritten as `origin:line:col: error …`. */
export function pointAtOrigin(tscOutput: string, files: readonly CompiledFile[]): string {
  const byName = new Map(files.map((f) => [f.name, f]));
  return tscOutput.replace(/^(\S+)\((\d+),(\d+)\)/gm, (whole, name: string, line: string, col: string) => {
    const file = byName.get(name);
    return file ? `${file.origin}:${file.firstLine + Number(line) - 1}:${col}` : whole;
  });
}
