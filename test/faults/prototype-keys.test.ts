/**
 * Issue 34 item 11: names that are Object.prototype's own (`__proto__`, `constructor`, `toString`)
 * coming from outside (an MCP client's name, a config file's keys, a provider's name) are looked up
 * as themselves: `constructor` found `Object` in the client table (a NaN budget, every refresh
 * failed), a config file's `"__proto__"` became the config's prototype (its `ledger` read as
 * config), a provider named `__proto__` vanished. (redactValue: test/redact/redact.test.ts.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { MemoryLedger } from '../../src/ledger/index.js';
import { clientProfile, createBatonMcpServer, UNKNOWN_CLIENT_WRAPPER_TOKENS, WorkspaceRegistry } from '../../src/mcp/index.js';
import { classifyCommand, classifyTool } from '../../src/loop/index.js';
import { createProviders } from '../../src/providers/index.js';
import { tempDir } from '../helpers/cli.js';
import { makeRepo } from '../refresh/helpers.js';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('an MCP client named like an Object member', () => {
  it.each(NAMES)('%s is sized as an unknown client', (name) => {
    expect(clientProfile(name)).toEqual({ forwards: 'both', wrapperTokens: UNKNOWN_CLIENT_WRAPPER_TOKENS, resources: 'json' });
  });

  it.each(NAMES)('%s refreshes its context and reads a resource', async (name) => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    cleanups.push(repo.cleanup);
    const ledger = new MemoryLedger();
    await ledger.createTask({ id: 'login', title: 'Add the login form', status: 'in_progress' });
    const { server } = createBatonMcpServer({ registry: new WorkspaceRegistry(async () => ledger), workspace: repo.dir });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(clientSide);
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'refresh_context', arguments: { task_id: 'login', format: 'standard' } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('Add the login form');
    const read = await client.readResource({ uri: 'baton://context/login' });
    expect(JSON.stringify(read.contents)).toContain('Add the login form');
  });
});

describe('a config file with prototype keys', () => {
  async function configFile(json: string): Promise<string> {
    const { dir, cleanup } = await tempDir('baton-proto-');
    cleanups.push(cleanup);
    mkdirSync(path.join(dir, '.baton'));
    writeFileSync(path.join(dir, '.baton', 'baton.config.json'), json);
    return dir;
  }

  it('refuses a "__proto__" key: its contents never become config', async () => {
    const cwd = await configFile('{"__proto__": {"ledger": "redis://evil.example:6379/0"}}');
    await expect(loadConfig({ cwd, env: {} })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('"__proto__"'),
    });
  });

  it('refuses a provider named "__proto__" by name instead of losing it', async () => {
    const cwd = await configFile('{"providers": {"__proto__": {"type": "command", "command": ["echo"]}}, "priority": ["__proto__"]}');
    await expect(loadConfig({ cwd, env: {} })).rejects.toThrow('providers.__proto__: a name may not be "__proto__"');
    const providers = JSON.parse('{"__proto__": {"type": "command", "command": ["echo"]}}') as Record<string, never>;
    expect(() => createProviders({ providers, priority: ['claude'] })).toThrow('providers.__proto__: a name may not be "__proto__"');
  });

  it('looks a provider named "constructor" up as itself', async () => {
    const undeclared = await configFile('{"priority": ["constructor"]}');
    await expect(loadConfig({ cwd: undeclared, env: {} })).rejects.toThrow(
      'priority.0 names provider "constructor", which is neither declared under "providers" nor built in',
    );
    const declared = await configFile(
      '{"providers": {"constructor": {"type": "command", "command": ["echo"]}}, "priority": ["constructor"]}',
    );
    const config = await loadConfig({ cwd: declared, env: {} });
    expect(config.providers.constructor).toMatchObject({ type: 'command', command: ['echo'] });
    expect(Object.keys(createProviders(config))).toEqual(['constructor']);
  });
});

describe('a tool or command named like an Object member', () => {
  it.each(['constructor', '__proto__'])('%s is classified as a plain tool or command, not as Object', (name) => {
    expect(classifyTool({ name, args: {} })).toEqual({ kind: 'other' });
    expect(classifyCommand(`${name} src/a.ts`)).toEqual({ kind: 'terminal' });
  });
});
