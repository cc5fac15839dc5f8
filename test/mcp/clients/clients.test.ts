import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMAT_TOKEN_CAPS, type RefreshFormat } from '../../../src/refresh/index.js';
import { countTokens } from '../../../src/tokens/index.js';
import { BURIED_ERROR } from '../../refresh/busy-ledger.js';
import { type AgentCli, type ClientName, ensureClients, prepareAgentCli, runProcess } from '../../helpers/agent-clis/index.js';
import { type ModelServer, type SeenToolResult, startModelServer } from '../../helpers/model-server/index.js';
import { ROOT } from '../helpers/launch.js';
import { makeProject } from './harness.js';
import { FINAL_TEXT, type ScriptStep, stepResults, stepScript } from './tool-script.js';

// Baton inside real MCP clients (issue 11): Claude Code, Gemini CLI and the MCP Inspector CLI, at
// pinned versions installed once into ~/.cache/baton-clients (never this package's dependencies).
// Claude Code and Gemini CLI talk to the scripted model server (test/helpers/model-server), which
// asks for a fixed list of tool calls; each call runs through the client's own MCP code, and the
// test asserts on what the client sent back to the model. Baton is configured exactly as docs/mcp.md says: the client's own
// `mcp add` command, then `npx --no baton mcp --workspace .` from a project that installed Baton.
// The model is the only stand-in: no model can run here.

const FORMATS: RefreshFormat[] = ['minimal', 'standard', 'detailed', 'narrative'];
const RUN_TIMEOUT_MS = 150_000;
const dist = path.join(ROOT, 'dist/cli/commands/mcp/action.js');
const available: Partial<Record<ClientName, string>> = {};

beforeAll(async () => {
  if (!existsSync(dist)) {
    // Visible in the test output, so a skip is never silent.
    console.warn('[client-compat] SKIPPED every client: dist/ is missing: run `npm run build` first (npm test does)');
    return;
  }
  // Each client it cannot install is named in a warning too.
  Object.assign(available, await ensureClients(['claude', 'gemini', 'inspector'], 'client-compat'));
}, 600_000);

function script(projectRoot: string): ScriptStep[] {
  return [
    { tool: 'workspace_handshake', args: { project_root: projectRoot } },
    ...FORMATS.map((format) => ({ tool: 'refresh_context', args: { task_id: 'busy', format } })),
    { tool: 'refresh_context', args: { task_ids: ['busy', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9'], format: 'standard' } },
    { tool: 'task', args: { action: 'get', task_id: 'ghost' } },
    // Claude Code reads resources through ReadMcpResourceTool, Gemini CLI through read_mcp_resource.
    { tool: 'ReadMcpResourceTool', args: { server: 'baton', uri: 'baton://context/busy' }, optional: true },
    { tool: 'read_mcp_resource', args: { uri: 'baton://context/busy' }, optional: true },
  ];
}

/** Baton's own output inside what the client forwarded (Gemini wraps tool output in a tag). */
function payload(result: SeenToolResult): string {
  return result.text.replace(/^<untrusted_context>\n?/, '').replace(/\n?<\/untrusted_context>$/, '');
}

/** A scripted session: the server, and the script's tools the client did not offer. */
interface Session {
  server: ModelServer;
  missing: string[];
}

/** The steps' results as the model last received them (every request carries the whole history). */
function resultsOf(server: ModelServer): SeenToolResult[] {
  return stepResults(server.turns.at(-1));
}

/** The assertions every model-driven client must pass: content, caps, the error text. */
function expectBatonSession({ server, missing }: Session, client: string): void {
  expect(missing, `${client} did not offer these tools`).toEqual([]);
  expect(server.problems).toEqual([]);
  const results = resultsOf(server);
  const [handshake, ...rest] = results;
  expect(handshake?.name).toMatch(/workspace_handshake$/);
  expect(payload(handshake as SeenToolResult)).toMatch(/"backend":\s*"sqlite"/);
  const refreshes = rest.slice(0, FORMATS.length);
  for (const [i, format] of FORMATS.entries()) {
    const result = refreshes[i] as SeenToolResult;
    const text = payload(result);
    expect(result.isError, `${format}: ${text.slice(0, 200)}`).toBe(false);
    // The cap holds for what this client actually forwarded to the model.
    expect(countTokens(text), `${client} ${format} tokens`).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
    expect(text).toContain('busy');
    if (format === 'narrative') {
      expect(text).toContain('# Session Context Summary');
      expect(text.split('Verification Checklist').length - 1, 'the continuation prompt arrives once').toBe(1);
    } else {
      expect(text).toMatch(/current_task/);
      expect(text).toContain('continuation_prompt');
    }
    if (format === 'detailed') {
      expect(text).toContain('git_diff');
      expect(text).toContain('The /orders endpoint answers 500');
      expect(text).toContain(BURIED_ERROR);
    }
  }
  const multi = payload(rest[FORMATS.length] as SeenToolResult);
  expect(countTokens(multi), `${client} ten tasks, standard`).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS.standard);
  for (const id of ['busy', 't1', 't9']) expect(multi).toMatch(new RegExp(`"task_id":\\s*"${id}"`));
  const error = rest[FORMATS.length + 1] as SeenToolResult;
  expect(error.isError).toBe(true);
  // Gemini quotes the result as JSON inside its own message, so quotes may arrive escaped.
  expect(error.text.replace(/\\"/g, '"')).toContain('Error NOT_FOUND: No task "ghost"');
  expect(error.text).toContain('Next step:');
  expect(error.text).not.toMatch(/output schema/i);
  const resource = rest[FORMATS.length + 2];
  expect(resource, `${client} read no resource`).toBeDefined();
  expect(payload(resource as SeenToolResult)).toContain('current_task');
}

/** Saves what reached the model, for docs/mcp.md's transcripts (BATON_CLIENT_TRANSCRIPTS=DIR). */
function saveTranscript(client: string, server: ModelServer, output: string): void {
  const dir = process.env.BATON_CLIENT_TRANSCRIPTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${client}.json`), JSON.stringify({ results: resultsOf(server), output }, null, 1));
}

/** A scripted model server running the suite's script, and the client pointed at it in the project. */
async function scriptedClient(name: 'claude' | 'gemini', projectDir: string): Promise<Session & { cli: AgentCli }> {
  const { respond, missing } = stepScript(script(projectDir));
  const server = await startModelServer({ respond });
  const cli = await prepareAgentCli(name, { serverUrl: server.url, cwd: projectDir });
  return { server, missing, cli };
}

describe('Baton inside real MCP clients', () => {
  const projects: Array<{ cleanup: () => void }> = [];
  afterAll(() => {
    for (const p of projects) p.cleanup();
  });

  it('Claude Code 2.1.197: a project server from `claude mcp add --scope project`, approved, used headless', async (ctx) => {
    const bin = available.claude;
    if (!bin) return ctx.skip();
    const project = await makeProject();
    projects.push(project);
    const session = await scriptedClient('claude', project.dir);
    const { cli, server } = session;
    try {
      // As docs/mcp.md says: add the server for the project (writes .mcp.json), then approve it.
      const add = await runProcess(
        cli.bin,
        ['mcp', 'add', '--scope', 'project', 'baton', '--', 'npx', '--no', 'baton', 'mcp', '--workspace', '.'],
        { cwd: project.dir, env: cli.env, timeoutMs: 60_000 },
      );
      expect(add.code, add.stderr).toBe(0);
      mkdirSync(path.join(project.dir, '.claude'));
      writeFileSync(path.join(project.dir, '.claude/settings.local.json'), JSON.stringify({ enabledMcpjsonServers: ['baton'] }));
      const run = await cli.run('Resume the work on this project with Baton.', {
        extraArgs: ['--allowedTools', 'mcp__baton', 'ReadMcpResourceTool', 'ListMcpResourcesTool'],
        timeoutMs: RUN_TIMEOUT_MS,
      });
      saveTranscript('claude', server, run.stdout);
      expect(run.code, run.stderr || run.stdout).toBe(0);
      expect(run.finalText).toBe(FINAL_TEXT);
      expectBatonSession(session, 'Claude Code');
    } finally {
      cli.cleanup();
      await server.close();
    }
  }, 240_000);

  it('Gemini CLI 0.61.0: a project server from `gemini mcp add`, used headless in yolo mode', async (ctx) => {
    const bin = available.gemini;
    if (!bin) return ctx.skip();
    const project = await makeProject();
    projects.push(project);
    const session = await scriptedClient('gemini', project.dir);
    const { cli, server } = session;
    try {
      const add = await runProcess(
        cli.bin,
        ['mcp', 'add', '--scope', 'project', 'baton', 'npx', '--', '--no', 'baton', 'mcp', '--workspace', '.'],
        { cwd: project.dir, env: cli.env, timeoutMs: 60_000 },
      );
      expect(add.code, add.stderr).toBe(0);
      const run = await cli.run('Resume the work on this project with Baton.', { timeoutMs: RUN_TIMEOUT_MS });
      saveTranscript('gemini', server, run.stdout);
      if (process.env.BATON_CLIENT_TRANSCRIPTS) console.log(server.requests.map((r) => `${r.method} ${r.path} ${r.status}`).join('\n'));
      expect(run.code, run.stderr.slice(-2000)).toBe(0);
      expect(run.finalText).toBe(FINAL_TEXT);
      expectBatonSession(session, 'Gemini CLI');
    } finally {
      cli.cleanup();
      await server.close();
    }
  }, 240_000);

  it('MCP Inspector CLI 2.12.0: portable schemas, caps, errors and resources from the .mcp.json config', async (ctx) => {
    const bin = available.inspector;
    if (!bin) return ctx.skip();
    const project = await makeProject();
    projects.push(project);
    writeFileSync(
      path.join(project.dir, '.mcp.json'),
      JSON.stringify({ mcpServers: { baton: { command: 'npx', args: ['--no', 'baton', 'mcp', '--workspace', '.'] } } }),
    );
    const env = { ...process.env, MCP_INSPECTOR_SECRET_STORE: 'memory' };
    const inspector = (...args: string[]) =>
      runProcess(bin, ['--cli', '--config', '.mcp.json', '--server', 'baton', ...args], { cwd: project.dir, env, timeoutMs: 60_000 });

    const list = await inspector('--method', 'tools/list', '--strict');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).not.toMatch(/^(Warning|Error): tool/m);
    expect(JSON.parse(list.stdout).tools).toHaveLength(7);

    for (const format of FORMATS) {
      const call = await inspector(
        '--method',
        'tools/call',
        '--tool-name',
        'refresh_context',
        '--tool-arg',
        `format=${format}`,
        '--tool-arg',
        'task_id=busy',
      );
      expect(call.code, call.stderr).toBe(0);
      const result = JSON.parse(call.stdout);
      expect(countTokens(result.content[0].text)).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
      expect(countTokens(JSON.stringify(result.structuredContent))).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
    }

    const error = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'task',
      '--tool-arg',
      'action=get',
      '--tool-arg',
      'task_id=ghost',
    );
    const failed = JSON.parse(error.stdout);
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toBeUndefined();
    expect(failed.content[0].text).toMatch(/^Error NOT_FOUND: No task "ghost".*\nField: task_id \(got "ghost"\)\nNext step: /s);

    const resources = JSON.parse((await inspector('--method', 'resources/list')).stdout).resources as Array<{ uri: string }>;
    expect(resources.map((r) => r.uri)).toContain('baton://context/current');
    for (const { uri } of resources.slice(0, 3)) {
      const read = await inspector('--method', 'resources/read', '--uri', uri);
      expect(read.code, `${uri}: ${read.stdout}${read.stderr}`).toBe(0);
      expect(JSON.parse(read.stdout).contents[0].text).toContain('current_task');
    }
  }, 240_000);
});
