import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batonCommand, ROOT } from '../mcp/helpers/launch.js';
import { makeRepo } from '../refresh/helpers.js';

// A module-load hook (node --import) that appends every module URL a real `baton` process loads
// to a file: what start-up pulls in is then asserted on, not guessed from the source.
let dir: string;
let hook: string;
let repo: ReturnType<typeof makeRepo>;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'baton-imports-'));
  // Each line: the thread that loaded the module (main, or a worker thread), then its URL.
  writeFileSync(
    path.join(dir, 'hooks.mjs'),
    "import { appendFileSync } from 'node:fs';\nlet thread = 'main';\nexport function initialize(data) {\n  thread = data.thread;\n}\nexport async function load(url, context, next) {\n  appendFileSync(process.env.TRACE_FILE, thread + ' ' + url + '\\n');\n  return next(url, context);\n}\n",
  );
  hook = path.join(dir, 'register.mjs');
  writeFileSync(
    hook,
    `import { register } from 'node:module';\nimport { isMainThread } from 'node:worker_threads';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)}, { data: { thread: isMainThread ? 'main' : 'worker' } });\n`,
  );
  repo = makeRepo({ 'src/app.ts': 'export {};\n' });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  repo?.cleanup();
});

/** Modules that must never load for the command at hand. */
const HEAVY = [/node_modules\/ai\//, /node_modules\/@ai-sdk\//, /tree-sitter/, /\/(src|dist)\/panel\//, /\/(src|dist)\/providers\//];

/**
 * The module URLs a thread loaded. A chunk of the bundled command (dist/cli-bundle) stands for
 * every module inlined into it, read from the bundle's metafile: code that moved into the bundle
 * is still seen by the patterns below.
 */
function loaded(name: string, thread: 'main' | 'worker' | 'any' = 'any'): string[] {
  const urls = readFileSync(path.join(dir, name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ', 2) as [string, string])
    .filter(([by]) => thread === 'any' || by === thread)
    .map(([, url]) => url);
  return urls.flatMap((url) => [url, ...inlinedInto(url)]);
}

let chunks: Record<string, { inputs: Record<string, unknown> }> | undefined;

function inlinedInto(url: string): string[] {
  if (!url.startsWith(pathToFileURL(path.join(ROOT, 'dist/cli-bundle')).href)) return [];
  chunks ??= JSON.parse(readFileSync(path.join(ROOT, 'dist/cli-bundle/metafile.json'), 'utf8')) as NonNullable<typeof chunks>;
  const chunk = chunks[path.relative(ROOT, fileURLToPath(url))];
  if (!chunk) throw new Error(`${url} is not in dist/cli-bundle/metafile.json: rebuild (npm run build)`);
  return Object.keys(chunk.inputs).map((input) => pathToFileURL(path.join(ROOT, input)).href);
}

function run(name: string, args: string[]): string[] {
  const { command, args: base } = batonCommand();
  const env = { ...process.env, TRACE_FILE: path.join(dir, name), BATON_LOG_LEVEL: 'warn' };
  execFileSync(command, ['--import', hook, ...base, ...args], { cwd: repo.dir, env, stdio: 'ignore' });
  return loaded(name);
}

// Start-up is a property of the built CLI (bin/baton.js over dist/); `npm test` builds first.
// From a stale build the source runs through tsx, whose own loader would be traced instead.
describe.skipIf(!batonCommand().built)('what each command loads at start-up', () => {
  it('`baton --version` loads nothing but bin/baton.js', () => {
    const env = { ...process.env, TRACE_FILE: path.join(dir, 'version') };
    const out = execFileSync(process.execPath, ['--import', hook, path.join(ROOT, 'bin/baton.js'), '--version'], {
      cwd: repo.dir,
      env,
      encoding: 'utf8',
    });
    expect(out.trim()).toBe(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
    const modules = loaded('version').filter((url) => url.startsWith('file:'));
    expect(modules).toEqual([pathToFileURL(path.join(ROOT, 'bin/baton.js')).href]);
  });

  it('`baton --help` and `baton status` load neither the AI SDK, tree-sitter, the providers, the tokenizer nor zod', () => {
    for (const [name, args] of [
      ['help', ['--help']],
      ['status', ['status']],
    ] as const) {
      const modules = run(name, [...args]);
      for (const pattern of [...HEAVY, /gpt-tokenizer|\/tokens\/encode-o200k/, /node_modules\/zod\//, /@secretlint/]) {
        expect(
          modules.filter((url) => pattern.test(url)),
          `${name}: ${pattern}`,
        ).toEqual([]);
      }
    }
  });

  it('`baton mcp` serves a session and a refresh_context without the AI SDK, tree-sitter, the panel or the providers', async () => {
    const { command, args } = batonCommand();
    const transport = new StdioClientTransport({
      command,
      args: ['--import', hook, ...args, 'mcp', '--workspace', repo.dir],
      cwd: repo.dir,
      env: { ...process.env, TRACE_FILE: path.join(dir, 'mcp'), BATON_LOG_LEVEL: 'warn' },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'imports-test', version: '1.0.0' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'refresh_context', arguments: { format: 'standard' } });
    expect(result.isError).toBeFalsy();
    await client.close();
    const modules = loaded('mcp');
    expect(modules.some((url) => /refresh-context/.test(url))).toBe(true);
    // The render thread loads the tokenizer and the secret rules; the server's own thread, busy
    // with the MCP SDK and the client, never loads the tokenizer for a one-task refresh. The
    // secret rules are Baton's own (redact/): secretlint, a test oracle only, loads nowhere.
    expect(loaded('mcp', 'worker').some((url) => /\/tokens\/encode-o200k/.test(url))).toBe(true);
    expect(loaded('mcp', 'worker').some((url) => /\/redact\/find-secrets/.test(url))).toBe(true);
    expect(loaded('mcp').filter((url) => /@secretlint/.test(url))).toEqual([]);
    expect(loaded('mcp', 'main').filter((url) => /\/tokens\/encode-o200k/.test(url))).toEqual([]);
    // Baton encodes with its own table beside the bundle (src/tokens/o200k-table.ts): gpt-tokenizer
    // (its 2.2 MB vocabulary module, its encoder) loads on neither thread.
    expect(loaded('mcp').filter((url) => /gpt-tokenizer/.test(url))).toEqual([]);
    // pino loads only when a record passes the log level (warn, here). ajv's code comes with the
    // SDK's server, as the SDK publishes it; Baton's validator builds it on first use only
    // (test/mcp/lazy-json-schema-validator.test.ts).
    expect(loaded('mcp', 'main').filter((url) => /node_modules\/pino\//.test(url))).toEqual([]);
    // zod is bundled through its public entry: of its translations only English (its default) loads.
    expect(loaded('mcp').filter((url) => /node_modules\/zod\/v4\/locales\/(?!en\.js)/.test(url))).toEqual([]);
    // `baton mcp` runs from its own entry, without the other commands.
    expect(modules.filter((url) => /\/dist\/cli-bundle\/index\.js$|\/cli\/commands\/(status|run|ui)\//.test(url))).toEqual([]);
    for (const pattern of HEAVY)
      expect(
        modules.filter((url) => pattern.test(url)),
        String(pattern),
      ).toEqual([]);
    // The HTTP transport is for --http only.
    expect(modules.filter((url) => /streamableHttp|@hono/.test(url))).toEqual([]);
  }, 30_000);
});
