import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonError } from '../../src/errors/index.js';
import { MemoryLedger } from '../../src/ledger/index.js';
import {
  createBatonMcpServer,
  type ForwardingOverride,
  parseForwardingOverride,
  UNKNOWN_CLIENT_WRAPPER_TOKENS,
  WorkspaceRegistry,
} from '../../src/mcp/index.js';
import { FORMAT_TOKEN_CAPS, REFRESH_FORMATS, type RefreshFormat } from '../../src/refresh/index.js';
import { countTokens } from '../../src/tokens/index.js';
import type { Loose } from '../refresh/helpers.js';
import { seedCrowdedWorkspace } from './crowded-workspace.js';

// Issue 30: what reaches the model stays within the format's cap in every client, whatever it
// forwards. Each client is connected by the clientInfo name it sends (the real SDK client over
// the SDK's in-memory transport), and what it would hand its model is built by the rule measured
// in the real client (docs/mcp.md, "What each client forwards"; test/mcp/clients/ runs the real
// clients). The crowded workspace fills every format to its cap, so a second copy would break it.

interface Forwarded {
  /** What the model reads. */
  text: string;
  /** Tokens the cap must also hold besides the text (an unknown client's wrapper). */
  reserve: number;
  /** Copies of the result in `text`. @default 1 */
  copies?: number;
}

type ToolResult = { content: Array<{ text: string }>; structuredContent: Record<string, unknown> };

/** The measured rule of each client (2026-11, the pinned versions). */
const FORWARDS: Record<string, (result: ToolResult) => Forwarded> = {
  'claude-code': (r) => ({ text: JSON.stringify(r.structuredContent), reserve: 0 }),
  'codex-mcp-client': (r) => ({ text: `Wall time: 0.2871 seconds\nOutput:\n${JSON.stringify(r.structuredContent)}`, reserve: 0 }),
  'gemini-cli-mcp-client': (r) => ({ text: `<untrusted_context>\n${r.content[0]?.text}\n</untrusted_context>`, reserve: 0 }),
  'copilot-cli': (r) => {
    const json = JSON.stringify(r.structuredContent);
    const text = r.content.map((c) => c.text).join('');
    const whole = text === json ? json : `${text}\n\n${json}`;
    // Over 20,480 bytes, the model gets a pointer to a temporary file instead.
    if (Buffer.byteLength(whole) > 20_480) return { text: 'Output too large to read at once. Saved to: /tmp/…', reserve: 0 };
    return { text: whole, reserve: 0 };
  },
  // A client Baton does not know may forward both forms, inside a wrapper of its own.
  'some-editor': (r) => ({
    text: `${r.content[0]?.text}\n\n${JSON.stringify(r.structuredContent)}`,
    reserve: UNKNOWN_CLIENT_WRAPPER_TOKENS,
    copies: 2,
  }),
};

let ledger: MemoryLedger;
let repo: Awaited<ReturnType<typeof seedCrowdedWorkspace>>;
let registry: WorkspaceRegistry;

beforeAll(async () => {
  ledger = new MemoryLedger();
  repo = await seedCrowdedWorkspace(ledger, 9);
  registry = new WorkspaceRegistry(async () => ledger);
}, 120_000);

afterAll(async () => {
  await registry.close();
  repo.cleanup();
});

async function connect(name: string, forwards?: ForwardingOverride): Promise<Client> {
  const { server } = createBatonMcpServer({ registry, workspace: repo.dir, forwards });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

async function refresh(client: Client, args: Record<string, unknown>): Promise<ToolResult> {
  const result = (await client.callTool({ name: 'refresh_context', arguments: args })) as Loose;
  expect(result.isError, result.content?.[0]?.text).toBeFalsy();
  return result;
}

const CALLS: Array<[string, Record<string, unknown>, RefreshFormat]> = [
  ...REFRESH_FORMATS.map((format): [string, Record<string, unknown>, RefreshFormat] => [format, { task_id: 'busy', format }, format]),
  ['ten tasks, standard', { task_ids: ['busy', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9'], format: 'standard' }, 'standard'],
];

describe.each(Object.keys(FORWARDS))('refresh_context as %s hands it to its model', (name) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(name);
  });
  afterAll(() => client.close());

  it.each(CALLS)('%s: within the cap, the whole result once', async (_label, args, format) => {
    const result = await refresh(client, args);
    const forwarded = FORWARDS[name]?.(result) as Forwarded;
    expect(countTokens(forwarded.text) + forwarded.reserve).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
    // The whole result: its continuation prompt (or the narrative's "Next Steps") and its metadata.
    const marker = format === 'narrative' ? 'Verification Checklist' : 'Session Continuation';
    if (!('task_ids' in args))
      expect(forwarded.text.split(marker).length - 1, 'the continuation prompt, once a copy').toBe(forwarded.copies ?? 1);
    expect(forwarded.text).toMatch(/token_estimate|_format narrative, \d+ tokens/);
  });
});

/** How each client hands a resource read to its model (measured the same way). */
const READS: Record<string, (uri: string, content: { text: string; mimeType?: string }) => string> = {
  'claude-code': (uri, c) => JSON.stringify({ contents: [{ uri, mimeType: c.mimeType, text: c.text }] }),
  'codex-mcp-client': (uri, c) => JSON.stringify({ server: 'baton', uri, contents: [{ uri, mimeType: c.mimeType, text: c.text }] }),
  'gemini-cli-mcp-client': (_uri, c) => `<untrusted_context>\n${c.text}\n</untrusted_context>`,
  'some-editor': (uri, c) => JSON.stringify({ result: { contents: [{ uri, mimeType: c.mimeType, text: c.text }] } }),
};

describe.each(Object.keys(READS))('a context resource as %s hands it to its model', (name) => {
  const reads = ['busy', 'quoted'].flatMap((task) => REFRESH_FORMATS.map((format) => [task, format] as const));
  it.each(reads)('%s, %s: within the cap, the whole context', async (task, format) => {
    const client = await connect(name);
    const uri = `baton://context/${task}?format=${format}`;
    const content = (await client.readResource({ uri })).contents[0] as { text: string; mimeType: string };
    await client.close();
    const forwarded = READS[name]?.(uri, content) ?? '';
    expect(countTokens(forwarded)).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
    expect(content.text.split(format === 'narrative' ? 'Verification Checklist' : 'Session Continuation').length - 1).toBe(1);
    if (format !== 'narrative') expect(content.text).toBe(JSON.stringify(JSON.parse(content.text)));
  });
});

describe('the text block beside structuredContent', () => {
  it('is exactly JSON.stringify(structuredContent) for the JSON formats and for every other tool', async () => {
    const client = await connect('gemini-cli-mcp-client');
    for (const format of ['minimal', 'standard', 'detailed'] as const) {
      const result = await refresh(client, { task_id: 'busy', format });
      expect(result.content[0]?.text).toBe(JSON.stringify(result.structuredContent));
    }
    const tasks = (await client.callTool({ name: 'task', arguments: { action: 'list', limit: 3 } })) as Loose;
    expect(tasks.content[0].text).toBe(JSON.stringify(tasks.structuredContent));
    await client.close();
  });

  it('is the markdown of the narrative for clients that forward one form, its JSON for Copilot CLI', async () => {
    const gemini = await connect('gemini-cli-mcp-client');
    const copilot = await connect('copilot-cli');
    const forGemini = await refresh(gemini, { task_id: 'busy', format: 'narrative' });
    const forCopilot = await refresh(copilot, { task_id: 'busy', format: 'narrative' });
    expect(forGemini.content[0]?.text).toMatch(/^# Session Context Summary/);
    expect(forCopilot.content[0]?.text).toBe(JSON.stringify(forCopilot.structuredContent));
    await gemini.close();
    await copilot.close();
  });
});

describe('the budget each client gets', () => {
  const budgetOf = async (name: string, forwards?: ForwardingOverride) => {
    const client = await connect(name, forwards);
    const result = await refresh(client, { task_id: 'busy', format: 'standard' });
    await client.close();
    return (result.structuredContent as Loose).metadata.token_budget as number;
  };

  it("is the format's cap for clients that forward one copy, less the wrapper of those that add one", async () => {
    expect(await budgetOf('claude-code')).toBe(4_000);
    expect(await budgetOf('copilot-cli')).toBe(4_000);
    expect(await budgetOf('codex-mcp-client')).toBe(4_000 - 16);
    expect(await budgetOf('gemini-cli-mcp-client')).toBe(4_000 - 16);
  });

  it('is half the cap, less a wrapper allowance, for a client Baton does not know, unless BATON_MCP_FORWARDS says otherwise', async () => {
    expect(await budgetOf('some-editor')).toBe((4_000 - 32) / 2);
    expect(await budgetOf('some-editor', 'text')).toBe(4_000 - 32);
    expect(await budgetOf('some-editor', 'both')).toBe((4_000 - 32) / 2);
    expect(await budgetOf('claude-code', 'text')).toBe(4_000);
  });

  it('rejects an unknown BATON_MCP_FORWARDS value, naming the variable and the choices', () => {
    expect(parseForwardingOverride(undefined)).toBeUndefined();
    expect(parseForwardingOverride(' structured ')).toBe('structured');
    const error = (() => {
      try {
        parseForwardingOverride('json');
      } catch (caught) {
        return caught as BatonError;
      }
      return undefined;
    })();
    expect(error?.code).toBe('INPUT_INVALID');
    expect(error?.message).toBe('BATON_MCP_FORWARDS must be one of structured, text, both; got "json"');
  });
});
