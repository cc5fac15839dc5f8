import { describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/agent-clis/index.js';
import { batonCommand, ROOT } from './helpers/launch.js';

describe('baton mcp --http on a non-loopback host', () => {
  it('refuses to start without a token: exit 2 and a message naming the ways out', async () => {
    const { command, args } = batonCommand();
    const { BATON_MCP_TOKEN: _token, ...env } = process.env;
    // Refused before listen(): nothing is bound beyond loopback.
    const run = await runProcess(command, [...args, 'mcp', '--http', '--host', '0.0.0.0', '--port', '0'], {
      cwd: ROOT,
      env,
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Refusing to serve 0\.0\.0\.0 without a token/);
    expect(run.stderr).toMatch(/BATON_MCP_TOKEN.*--allow-unauthenticated/s);
  });
});
