import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, type ExpectStatic, it } from 'vitest';
import { FORMAT_TOKEN_CAPS, type RefreshFormat } from '../../../src/refresh/index.js';
import { countTokens } from '../../../src/tokens/index.js';
import { BURIED_ERROR } from '../../refresh/busy-ledger.js';
import {
  type AgentCli,
  type AgentRunOptions,
  type ClientName,
  ensureClients,
  prepareAgentCli,
  runProcess,
} from '../../helpers/agent-clis/index.js';
import { findTool, type ModelServer, type SeenToolResult, startModelServer } from '../../helpers/model-server/index.js';
import { ROOT } from '../helpers/launch.js';
import { docBlock } from './doc-blocks.js';
import { makeProject, PENDING_TASK } from './harness.js';
import { FINAL_TEXT, type ScriptStep, stepResults, stepScript } from './tool-script.js';

// Baton inside real MCP clients (issues 11 and 30): Claude Code, Gemini CLI, Codex CLI, Copilot CLI
// and the MCP Inspector CLI, at pinned versions installed once into ~/.cache/baton-clients (never
// this package's dependencies), all five at once. The four agents talk to the scripted model
// server (test/helpers/model-server), each in its own API (Anthropic Messages, Gemini, the OpenAI
// Responses API for Codex, chat completions for Copilot), which asks for a fixed list of tool
// calls; each call runs through the client's own MCP code, and the test asserts on what the
// client sent back to the model: every format within its cap counted on exactly that (the
// client's own wrapper included), the error, a resource read where the client can read one.
// Baton is configured as docs/mcp.md says, word for word: the page's blocks are read here
// (doc-blocks.ts). The model is the only stand-in: no model can run here.

const FORMATS: RefreshFormat[] = ['minimal', 'standard', 'detailed', 'narrative'];
const RUN_TIMEOUT_MS = 150_000;
const TEST_TIMEOUT_MS = 240_000;
/** A model Codex has no metadata for, as with any local model: its tool output limit is then the default one. */
const CODEX_LOCAL_MODEL = 'qwen3-coder-local';
const dist = path.join(ROOT, 'dist/cli/commands/mcp/action.js');
const available: Partial<Record<ClientName, string>> = {};

beforeAll(async () => {
  if (!existsSync(dist)) {
    // Visible in the test output, so a skip is never silent.
    console.warn('[client-compat] SKIPPED every client: dist/ is missing: run `npm run build` first (npm test does)');
    return;
  }
  // Each client it cannot install is named in a warning too.
  Object.assign(available, await ensureClients(['claude', 'gemini', 'codex', 'copilot', 'inspector'], 'client-compat'));
}, 600_000);

type ModelClient = 'claude' | 'gemini' | 'codex' | 'copilot';

/** How each client reads a resource, when it offers the model a tool for it (Copilot CLI does not). */
const READ_RESOURCE: Partial<Record<ModelClient, (uri: string) => ScriptStep>> = {
  claude: (uri) => ({ tool: 'ReadMcpResourceTool', args: { server: 'baton', uri } }),
  gemini: (uri) => ({ tool: 'read_mcp_resource', args: { uri } }),
  codex: (uri) => ({ tool: 'read_mcp_resource', args: { server: 'baton', uri } }),
};

function script(projectRoot: string, client: ModelClient): ScriptStep[] {
  const read = READ_RESOURCE[client];
  return [
    { tool: 'workspace_handshake', args: { project_root: projectRoot } },
    ...FORMATS.map((format) => ({ tool: 'refresh_context', args: { task_id: 'busy', format } })),
    { tool: 'refresh_context', args: { task_ids: ['busy', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9'], format: 'standard' } },
    // Copilot CLI has a `task` tool of its own: Baton's is `baton-task` there.
    { tool: client === 'copilot' ? 'baton-task' : 'task', args: { action: 'get', task_id: 'ghost' } },
    // A pending task's context: listed by resources/list, so Gemini CLI may read it too.
    ...(read ? [read(`baton://context/${PENDING_TASK}`)] : []),
    // Gemini CLI refuses a URI that was not listed before asking the server.
    ...(read && client !== 'gemini' ? [read('baton://context/ghost')] : []),
  ];
}

/** Baton's own output inside what the client forwarded (for content checks; caps count the whole). */
function payload(result: SeenToolResult): string {
  return result.text
    .replace(/^<untrusted_context>\n?/, '')
    .replace(/\n?<\/untrusted_context>$/, '')
    .replace(/^Wall time: [\d.]+ seconds\nOutput:\n/, '');
}

/** A scripted session: the server, and the script's tools the client did not offer. */
interface Session {
  server: ModelServer;
  missing: string[];
  client: ModelClient;
}

/** The assertions every model-driven client must pass: Baton in the first turn, caps, content, the error, resources. */
function expectBatonSession(expect: ExpectStatic, { server, missing, client }: Session, title: string): void {
  expect(missing, `${title} did not offer these tools`).toEqual([]);
  expect(server.problems).toEqual([]);
  // The docs' set-up wins the start-up race: Baton's tools are in the very first model request.
  const first = server.turns.find((turn) => !turn.side);
  expect(findTool(first?.tools ?? [], 'workspace_handshake'), `${title}: Baton's tools in the first turn`).toBeDefined();
  const results = stepResults(server.turns.at(-1));
  const [handshake, ...rest] = results;
  expect(handshake?.name).toMatch(/workspace_handshake$/);
  expect(payload(handshake as SeenToolResult)).toMatch(/"backend":\s*"sqlite"/);
  for (const [i, format] of FORMATS.entries()) {
    const result = rest[i] as SeenToolResult;
    const text = payload(result);
    expect(result.isError, `${format}: ${text.slice(0, 200)}`).toBe(false);
    // The cap holds for what this client actually forwarded to the model, its wrapper included.
    expect(countTokens(result.text), `${title} ${format} tokens`).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
    expect(text).toContain('busy');
    if (format === 'narrative') {
      expect(text).toContain('# Session Context Summary');
      expect(text.split('Verification Checklist').length - 1, 'the continuation prompt arrives once').toBe(1);
    } else {
      expect(text).toMatch(/current_task/);
      expect(text.split('"continuation_prompt"').length - 1, 'the result arrives once').toBe(1);
    }
    if (format === 'detailed') {
      expect(text).toContain('git_diff');
      expect(text).toContain('The /orders endpoint answers 500');
      expect(text).toContain(BURIED_ERROR);
      expect(text, 'nothing cut out of the middle').not.toMatch(/tokens truncated/);
    }
  }
  const multi = rest[FORMATS.length] as SeenToolResult;
  expect(countTokens(multi.text), `${title} ten tasks, standard`).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS.standard);
  for (const id of ['busy', 't1', 't9']) expect(payload(multi)).toMatch(new RegExp(`"task_id":\\s*"${id}"`));
  const error = rest[FORMATS.length + 1] as SeenToolResult;
  // Only the Anthropic and Gemini wire formats flag an error result; the text says it everywhere.
  if (client === 'claude' || client === 'gemini') expect(error.isError).toBe(true);
  // Gemini quotes the result as JSON inside its own message, so quotes may arrive escaped.
  expect(error.text.replace(/\\"/g, '"')).toContain('Error NOT_FOUND: No task "ghost"');
  expect(error.text).toContain('Next step:');
  expect(error.text).not.toMatch(/output schema/i);
  if (!READ_RESOURCE[client]) return;
  const resource = rest[FORMATS.length + 2] as SeenToolResult;
  expect(resource, `${title} read no resource`).toBeDefined();
  expect(countTokens(resource.text), `${title} resource read tokens`).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS.standard);
  expect(resource.text.replace(/\\"/g, '"')).toContain(`"id":"${PENDING_TASK}"`);
  if (client === 'gemini') return;
  // Codex shows the JSON-RPC error whole (-32002 and Baton's message); Claude Code its own words.
  const missingResource = rest[FORMATS.length + 3] as SeenToolResult;
  if (client === 'codex') {
    expect(missingResource.text).toMatch(/-32002/);
    expect(missingResource.text.replace(/\\"/g, '"')).toContain('Resource baton://context/ghost not found: No task "ghost"');
  } else expect(missingResource.text).toMatch(/not found.*baton:\/\/context\/ghost|baton:\/\/context\/ghost.*not found/i);
}

/** Saves what reached the model, for docs/mcp.md's transcripts (BATON_CLIENT_TRANSCRIPTS=DIR). */
function saveTranscript(client: string, server: ModelServer, output: string): void {
  const dir = process.env.BATON_CLIENT_TRANSCRIPTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const first = server.turns.find((turn) => !turn.side);
  const results = stepResults(server.turns.at(-1));
  writeFileSync(
    path.join(dir, `${client}.json`),
    JSON.stringify({ firstTurnTools: first?.tools.map((t) => t.name), results, output }, null, 1),
  );
}

/** A scripted model server running the suite's script, and the client pointed at it in the project. */
async function scriptedClient(
  client: ModelClient,
  projectDir: string,
  options: { model?: string; codexToml?: string } = {},
): Promise<Session & { cli: AgentCli }> {
  const { respond, missing } = stepScript(script(projectDir, client));
  const server = await startModelServer({ respond });
  const cli = await prepareAgentCli(client, { serverUrl: server.url, cwd: projectDir, ...options });
  return { server, missing, client, cli };
}

/** Runs a shell line from the docs as written, with the client's bin on PATH. */
function runDocCommand(line: string, cli: AgentCli) {
  const env = { ...cli.env, PATH: `${path.dirname(cli.bin)}${path.delimiter}${process.env.PATH ?? ''}` };
  return runProcess('sh', ['-c', line], { cwd: cli.cwd, env, timeoutMs: 60_000 });
}

describe.concurrent('Baton inside real MCP clients', () => {
  const projects: Array<{ cleanup: () => void }> = [];
  afterAll(() => {
    for (const p of projects) p.cleanup();
  });
  const project = async () => {
    const made = await makeProject();
    projects.push(made);
    return made;
  };

  /**
   * One agent's session: a project, the scripted model and the client, `configure` (the docs'
   * set-up, in the project), a headless run, then every assertion of expectBatonSession.
   */
  const session = async (
    expect: ExpectStatic,
    client: ModelClient,
    title: string,
    steps: {
      setUp?: { model?: string; codexToml?: string };
      configure: (cli: AgentCli, dir: string) => Promise<void> | void;
      run?: AgentRunOptions;
    },
  ) => {
    const { dir } = await project();
    const scripted = await scriptedClient(client, dir, steps.setUp);
    const { cli, server } = scripted;
    try {
      await steps.configure(cli, dir);
      const run = await cli.run('Resume the work on this project with Baton.', { timeoutMs: RUN_TIMEOUT_MS, ...steps.run });
      saveTranscript(client, server, run.stdout);
      expect(run.code, run.stderr.slice(-2000) || run.stdout.slice(-2000)).toBe(0);
      expect(run.finalText).toBe(FINAL_TEXT);
      expectBatonSession(expect, scripted, title);
    } finally {
      cli.cleanup();
      await server.close();
    }
  };

  it(
    'Claude Code 2.1.197: a project server from `claude mcp add-json --scope project` (alwaysLoad), approved, used headless',
    async ({ expect, skip }) => {
      if (!available.claude) return skip();
      await session(expect, 'claude', 'Claude Code', {
        // As docs/mcp.md says: add the server for the project (writes .mcp.json), then approve it.
        configure: async (cli, dir) => {
          const add = await runDocCommand(docBlock('Claude Code', 'sh'), cli);
          expect(add.code, add.stderr).toBe(0);
          expect(JSON.parse(readFileSync(path.join(dir, '.mcp.json'), 'utf8'))).toEqual(JSON.parse(docBlock('Claude Code', 'json', 0)));
          mkdirSync(path.join(dir, '.claude'));
          writeFileSync(path.join(dir, '.claude/settings.local.json'), docBlock('Claude Code', 'json', 1));
        },
        // alwaysLoad waits MCP_CONNECT_TIMEOUT_MS (5 s by default) for Baton: a loaded machine needs more (docs/mcp.md).
        run: {
          extraArgs: ['--allowedTools', 'mcp__baton', 'ReadMcpResourceTool', 'ListMcpResourcesTool'],
          env: { MCP_CONNECT_TIMEOUT_MS: '60000' },
        },
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'Gemini CLI 0.61.0: a project server from `gemini mcp add`, used headless in yolo mode',
    async ({ expect, skip }) => {
      if (!available.gemini) return skip();
      await session(expect, 'gemini', 'Gemini CLI', {
        configure: async (cli, dir) => {
          const add = await runDocCommand(docBlock('Gemini CLI', 'sh'), cli);
          expect(add.code, add.stderr).toBe(0);
          const written = JSON.parse(readFileSync(path.join(dir, '.gemini/settings.json'), 'utf8'));
          expect(written.mcpServers).toEqual(JSON.parse(docBlock('Gemini CLI', 'json', 0)).mcpServers);
        },
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'Codex CLI 0.171.0 with a model it does not know: the project .codex/config.toml (required) and tool_output_token_limit',
    async ({ expect, skip }) => {
      if (!available.codex) return skip();
      await session(expect, 'codex', 'Codex CLI', {
        // The docs' two files: the line at the top of ~/.codex/config.toml, the project's own config.
        setUp: { model: CODEX_LOCAL_MODEL, codexToml: docBlock('Codex CLI', 'toml', 0) },
        configure: (_cli, dir) => {
          mkdirSync(path.join(dir, '.codex'));
          writeFileSync(path.join(dir, '.codex/config.toml'), `${docBlock('Codex CLI', 'toml', 1)}\n`);
        },
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "Copilot CLI 1.0.102 on its own model endpoint: the project's .mcp.json in a trusted folder, used headless",
    async ({ expect, skip }) => {
      if (!available.copilot) return skip();
      expect(docBlock('Copilot CLI', 'sh')).toMatch(/ -s --allow-all-tools --trust-folder$/);
      await session(expect, 'copilot', 'Copilot CLI', {
        configure: (_cli, dir) => writeFileSync(path.join(dir, '.mcp.json'), docBlock('Claude Code', 'json', 0)),
        run: { extraArgs: ['--trust-folder'] },
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'MCP Inspector CLI 2.12.0: portable schemas, caps, errors and resources from the .mcp.json config',
    async ({ expect, skip }) => {
      const bin = available.inspector;
      if (!bin) return skip();
      const { dir } = await project();
      writeFileSync(path.join(dir, '.mcp.json'), docBlock('Claude Code', 'json', 0));
      const env = { ...process.env, MCP_INSPECTOR_SECRET_STORE: 'memory' };
      const inspector = (...args: string[]) =>
        runProcess(bin, ['--cli', '--config', '.mcp.json', '--server', 'baton', ...args], { cwd: dir, env, timeoutMs: 60_000 });

      // Each call is a fresh Inspector and server: independent, so they run at once.
      const call = (format: RefreshFormat) =>
        inspector(
          '--method',
          'tools/call',
          '--tool-name',
          'refresh_context',
          '--tool-arg',
          `format=${format}`,
          '--tool-arg',
          'task_id=busy',
        );
      const [list, calls, error, listed, templates] = await Promise.all([
        inspector('--method', 'tools/list', '--strict'),
        Promise.all(FORMATS.map(call)),
        inspector('--method', 'tools/call', '--tool-name', 'task', '--tool-arg', 'action=get', '--tool-arg', 'task_id=ghost'),
        inspector('--method', 'resources/list'),
        inspector('--method', 'resources/templates/list'),
      ]);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stderr).not.toMatch(/^(Warning|Error): tool/m);
      expect(JSON.parse(list.stdout).tools).toHaveLength(7);

      for (const [i, format] of FORMATS.entries()) {
        const done = calls[i] as Awaited<ReturnType<typeof inspector>>;
        expect(done.code, done.stderr).toBe(0);
        const result = JSON.parse(done.stdout);
        expect(countTokens(result.content[0].text)).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
        expect(countTokens(JSON.stringify(result.structuredContent))).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
      }

      const failed = JSON.parse(error.stdout);
      expect(failed.isError).toBe(true);
      expect(failed.structuredContent).toBeUndefined();
      expect(failed.content[0].text).toMatch(/^Error NOT_FOUND: No task "ghost".*\nField: task_id \(got "ghost"\)\nNext step: /s);

      const resources = JSON.parse(listed.stdout).resources as Array<{ uri: string }>;
      expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['baton://context/current', `baton://context/${PENDING_TASK}`]));
      const reads = await Promise.all(resources.slice(0, 3).map(({ uri }) => inspector('--method', 'resources/read', '--uri', uri)));
      for (const [i, read] of reads.entries()) {
        expect(read.code, `${resources[i]?.uri}: ${read.stdout}${read.stderr}`).toBe(0);
        expect(JSON.parse(read.stdout).contents[0].text).toContain('current_task');
      }
      const uriTemplates = JSON.parse(templates.stdout).resourceTemplates as Array<{ uriTemplate: string }>;
      expect(uriTemplates.map((t) => t.uriTemplate)).toEqual(['baton://context/{task_id}']);
    },
    TEST_TIMEOUT_MS,
  );
});
