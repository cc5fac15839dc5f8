/** The MCP server starters from code: an unknown option or a value of the wrong type is named before anything listens. */
import { describe, expect, it } from 'vitest';
import { createBatonMcpServer, serveHttp, serveStdio } from '../../src/mcp/index.js';

describe('MCP server options', () => {
  it('createBatonMcpServer names a misspelled option with the spelling expected', () => {
    expect(() => createBatonMcpServer({ workspaceDir: '/tmp' } as never)).toThrow(
      'createBatonMcpServer options: unknown key "workspaceDir" (did you mean "workspace"?)',
    );
    expect(() => createBatonMcpServer({ forwards: 'json' } as never)).toThrow(
      /^createBatonMcpServer options: forwards: .*"structured".*; got "json"$/,
    );
  });

  it('serveHttp and serveStdio reject before listening or reading stdin', async () => {
    await expect(serveHttp({ port: 0, hostname: '127.0.0.1' } as never)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/^serveHttp options: unknown key "hostname" \(expected one of: .*\bhost, token\b/),
    });
    await expect(serveHttp({ port: '8080' } as never)).rejects.toThrow(
      'serveHttp options: port: Invalid input: expected number, received string; got "8080"',
    );
    await expect(serveStdio({ watchInterval: 10 } as never)).rejects.toThrow(
      'serveStdio options: unknown key "watchInterval" (did you mean "watchIntervalMs"?)',
    );
  });
});
