/**
 * Layering without cycles: builds the import graph of src/ from the source text (`import`,
 * `import type`, `export … from` and dynamic `import()` all count, since a type-only cycle still
 * couples two files) and fails on any cycle between files, on any import that points outward
 * (nothing outside cli/ imports cli/; nothing outside cli/ and mcp/ imports mcp/, except the package's
 * root face src/index.ts), and on any import of another module that does not go through that
 * module's index.ts (DESIGN.md: "A module imports another only through its index.ts"). Also checks
 * that the heavy optional parts (the AI SDK, tree-sitter, secretlint) are only ever imported
 * dynamically.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Relative module specifiers of a file, resolved to source files under src/. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const out: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), fileName.replace(/\.js$/, ''));
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate));
    if (target) out.push(target);
  }
  return out;
}

/** The import graph, keyed by path relative to src/. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    graph.set(
      path.relative(SRC, file),
      importsOf(file).map((target) => path.relative(SRC, target)),
    );
  }
  return graph;
}

/** Every strongly connected component with more than one file (or a self-import): each is a cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      const popped = stack.pop();
      if (popped === undefined) break;
      member = popped;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** One concrete loop through a component, for the message: a.ts → b.ts → a.ts. */
function describeCycle(graph: Map<string, string[]>, component: string[]): string {
  const members = new Set(component);
  const start = [...component].sort()[0] as string;
  const pathTo = new Map<string, string>([[start, '']]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const loop = [node];
        for (let at = node; at !== start; at = pathTo.get(at) as string) loop.unshift(pathTo.get(at) as string);
        return [...loop, start].join(' → ');
      }
      if (members.has(next) && !pathTo.has(next)) {
        pathTo.set(next, node);
        queue.push(next);
      }
    }
  }
  return component.join(', ');
}

/**
 * Cycles known and waiting for a fix, as the sorted files of their component. Each entry is a debt,
 * not a licence: a component that grows (a new file joins it) or a new cycle still fails.
 */
const KNOWN_CYCLES: readonly string[][] = [];

/**
 * Imports that reach past another module's index.ts, as `from -> to` (paths under src/). Each
 * entry is a debt, not a licence: a new one fails, and an entry whose import is gone fails too
 * until it leaves the list, so the list only shrinks. Fix one by exporting what is needed from the
 * module's index.ts (a module's face serves the other modules; the root src/index.ts serves users
 * and stays curated) and importing it from there.
 *
 * Why these stay: start-up of every command. The CLI ships as one esbuild build with code splitting
 * (scripts/bundle-cli.mjs), and there a static import of an index puts into the importer's chunks
 * every file that index names which any command uses (esbuild's splitting follows every import of
 * the index, not what is used). `baton hook`, `baton mcp` and the render thread are built on their
 * own (their start-up paths import mcp/ and refresh/ through light.ts); `baton status`, `--help`
 * and the other commands share the main build:
 * - cli/context.ts (every command's start) and status/gather-status.ts: ledger/index names
 *   parseLedgerLines (public and synchronous; its schema is zod), config/index the config schema
 *   and util/index the option schemas (zod); neither may load zod.
 */
const KNOWN_DEEP_IMPORTS: readonly string[] = [
  'cli/commands/status/gather-status.ts -> ledger/ledger.ts',
  'cli/context.ts -> config/defaults.ts',
  'cli/context.ts -> ledger/open-ledger.ts',
  'cli/context.ts -> util/wire-case.ts',
];

/**
 * A module's faces: its index.ts, and for a module that start-up reaches (mcp/, refresh/) a light.ts
 * that names only what start-up needs, which the index re-exports (refresh/light.ts says why).
 */
const FACES = ['index.ts', 'light.ts'];

function topFolder(file: string): string {
  return file.split(path.sep)[0] as string;
}

/** Packages that cost tens of milliseconds (or megabytes) and serve one feature: loaded on use only. */
const HEAVY = /^(ai|@ai-sdk\/(anthropic|google|openai-compatible)|web-tree-sitter|tree-sitter-wasms|@secretlint\/.*)$/;

/** Static imports of a heavy package that bring in a value (type-only imports are erased). */
function heavyValueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const specifier = statement.moduleSpecifier.text;
    if (!HEAVY.test(specifier)) continue;
    const clause = statement.importClause;
    if (clause?.isTypeOnly) continue;
    const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
    const typesOnly = clause !== undefined && clause.name === undefined && named?.every((e) => e.isTypeOnly) === true;
    if (!typesOnly) found.push(`${path.relative(SRC, file)} imports ${specifier}`);
  }
  return found;
}

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('reads every source file and their imports', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(path.join('cli', 'context.ts'))).toContain(path.join('ledger', 'index.ts'));
  });

  it('has no cycle between files, type-only imports included', () => {
    const known = new Set(KNOWN_CYCLES.map((files) => files.map((f) => f.split('/').join(path.sep)).join('|')));
    const found = cycles(graph);
    const isKnown = (component: string[]) => known.has([...component].sort().join('|'));
    expect(found.filter((component) => !isKnown(component)).map((component) => describeCycle(graph, component))).toEqual([]);
    // A known cycle that is gone must leave the list too.
    expect(KNOWN_CYCLES.length).toBe(found.filter(isKnown).length);
  });

  it('points inward: nothing imports cli/, and only cli/ imports mcp/', () => {
    const outward: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const from = topFolder(file);
        const to = topFolder(target);
        // src/index.ts is the package's face, not a module: it lists the MCP server for users.
        if (from === to || file === 'index.ts') continue;
        if (to === 'cli' || (to === 'mcp' && from !== 'cli')) outward.push(`${file} imports ${target}`);
      }
    }
    expect(outward).toEqual([]);
  });

  it('reaches another module only through its index.ts or light.ts (the known exceptions listed, and only those)', () => {
    const deep = new Set<string>();
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const module = topFolder(target);
        if (topFolder(file) === module || FACES.some((face) => target === path.join(module, face))) continue;
        deep.add(`${file.split(path.sep).join('/')} -> ${target.split(path.sep).join('/')}`);
      }
    }
    const known = new Set(KNOWN_DEEP_IMPORTS);
    expect(
      [...deep].filter((edge) => !known.has(edge)),
      "import these through the module's index.ts (export what is needed there)",
    ).toEqual([]);
    expect(
      KNOWN_DEEP_IMPORTS.filter((edge) => !deep.has(edge)),
      'these imports are gone: remove them from KNOWN_DEEP_IMPORTS',
    ).toEqual([]);
  });

  it('loads the heavy packages only when used (dynamic import), never at module load', () => {
    expect(sourceFiles(SRC).flatMap(heavyValueImports)).toEqual([]);
  });
});
