// Bundles the `baton` command (bin/baton.js) into dist/cli-bundle/, after tsc has built dist/.
// Why: a fresh `baton mcp` spent most of its start-up in Node's module loader, resolving and
// reading ~600 files (the MCP SDK, zod, commander, Baton's own modules). One bundle, split where
// the code already loads lazily, starts about a third faster (bench cold). The library
// (dist/index.js) stays unbundled. Packages that are native, optional, loaded only on some paths,
// or that find their own files at run time stay external and load from node_modules.
// Dependencies are bundled as they publish themselves, through their public entries: no plugin
// rewrites a path inside another package. Baton imports zod as a namespace (`import * as z`), so
// esbuild leaves out what is not used, zod's 64 translations of its messages among it.
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild-wasm';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'cli-bundle');
/** What start-up always loads: inlined. Everything else the package depends on stays external. */
const INLINE = new Set(['@modelcontextprotocol/sdk', 'zod', 'commander']);

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const external = [
  ...new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]),
]
  .filter((name) => !INLINE.has(name))
  .flatMap((name) => [name, `${name}/*`]);

/**
 * Modules import each other through a module's index.ts (DESIGN.md), and an index names all of its
 * module. Baton's own files do nothing at load that anything relies on unless one of their exports
 * is used (no bare `import './x.js'`, no registration at load), so they are marked free of side
 * effects: a file none of whose exports a build uses is left out, with what it imports (a zod
 * schema built at load, say), instead of running because an index named it.
 */
const DIST = path.join(ROOT, 'dist') + path.sep;
const batonFilesWithoutSideEffects = {
  name: 'baton-files-without-side-effects',
  setup(bundle) {
    bundle.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData?.baton || !args.importer.startsWith(DIST)) return undefined;
      const { kind, importer, resolveDir } = args;
      const resolved = await bundle.resolve(args.path, { kind, importer, resolveDir, pluginData: { baton: true } });
      if (resolved.errors.length > 0 || resolved.external || !resolved.path.startsWith(DIST)) return undefined;
      return { path: resolved.path, sideEffects: false };
    });
  },
};

/** Options both builds share. */
const common = {
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // Inlined CommonJS (commander) calls require() for Node's own modules.
  banner: { js: "import { createRequire as __batonRequire } from 'node:module'; const require = __batonRequire(import.meta.url);" },
  legalComments: 'none',
  // Maps back to dist/ and node_modules/: stack traces under --enable-source-maps, and the
  // per-package CPU profile of `npm run bench -- cold`.
  sourcemap: 'linked',
  logLevel: 'warning',
  metafile: true,
  absWorkingDir: ROOT,
};

await rm(OUT, { recursive: true, force: true });
const result = await build({
  ...common,
  entryPoints: { index: path.join(ROOT, 'dist/cli/index.js') },
});
/**
 * Three entries built on their own: `baton hook EVENT` (bin/baton.js loads it alone: an agent CLI
 * runs it at every tool call), `baton mcp` (a client waits for its `initialize`) and its render
 * thread (its entry sits beside the chunks: render-worker.ts finds it next to itself). Chunks shared with the command's entries would
 * carry every file their imports reach that any command uses (esbuild's splitting follows every
 * import of a module's index); built alone, with Baton's files free of side effects, each holds
 * only what it uses.
 */
const alone = await Promise.all(
  [
    ['hook-main', 'dist/hooks/hook-main.js'],
    ['mcp-main', 'dist/cli/mcp-main.js'],
    ['render-worker-main', 'dist/refresh/render-worker-main.js'],
  ].map(([name, entry]) =>
    build({
      ...common,
      entryPoints: { [name]: path.join(ROOT, entry) },
      chunkNames: `${name}-[name]-[hash]`,
      plugins: [batonFilesWithoutSideEffects],
    }),
  ),
);
// The tokenizer's vocabulary beside the chunks, as a ready-made table (src/tokens/o200k-table.ts
// says why), written from the o200k_base data gpt-tokenizer publishes. The library build
// (dist/tokens/) reads it from here too.
const { O200K_TABLE_FILE, o200kTiktokenFile } = await import('../dist/tokens/o200k-vocabulary.js');
const { o200kTableBytes } = await import('../dist/tokens/o200k-table.js');
const { readTiktokenRanks } = await import('../dist/tokens/read-tiktoken-ranks.js');
await writeFile(path.join(OUT, O200K_TABLE_FILE), o200kTableBytes(readTiktokenRanks(o200kTiktokenFile())));
// Which modules each chunk holds: tests that assert what a command loads read it (a module's own
// URL is gone once it is inlined).
await writeFile(
  path.join(OUT, 'metafile.json'),
  JSON.stringify(Object.assign({}, ...[result, ...alone].map((built) => built.metafile.outputs))),
);
