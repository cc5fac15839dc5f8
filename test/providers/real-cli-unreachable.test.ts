import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createProvider } from '../../src/providers/index.js';
import { type AgentCliName, ensureClients, prepareAgentCli } from '../helpers/agent-clis/index.js';

/**
 * A model endpoint nothing listens on, with the real CLIs: Codex 0.171 waits for the network for
 * ever ("Reconnecting... waiting for network", its backoff growing to minutes), so Baton stops it
 * after a few such notices (four by default, about 40 s; here BATON_CODEX_RECONNECTS=RECONNECTS, as
 * the count is not what this test asserts) and names the endpoint; Copilot gives up at once and
 * names it itself. (Claude and Gemini give up after 3-5 minutes of their own retries: too slow to
 * run here.)
 */
const CLIS = ['codex', 'copilot'] as const satisfies readonly AgentCliName[];
const RECONNECTS = 1;

let found: Partial<Record<AgentCliName, string>> = {};
let closedUrl = '';
const made: string[] = [];
const savedReconnects = process.env.BATON_CODEX_RECONNECTS;
beforeAll(async () => {
  process.env.BATON_CODEX_RECONNECTS = String(RECONNECTS);
  found = await ensureClients(CLIS, 'real-cli-unreachable');
  // A port that was just free: bound, then released, so nothing answers on it.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  closedUrl = `http://127.0.0.1:${port}`;
});
afterAll(() => {
  if (savedReconnects === undefined) delete process.env.BATON_CODEX_RECONNECTS;
  else process.env.BATON_CODEX_RECONNECTS = savedReconnects;
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

// The two CLIs run at once (own folders, own homes, one closed port): Codex's ~40 s of reconnects
// no longer waits for Copilot's run first.
describe.concurrent('an unreachable model endpoint is reported as such, long before the agent time limit', () => {
  it.for(CLIS)('%s', { timeout: 300_000 }, async (name, { expect, skip }) => {
    if (!found[name]) skip();
    const cwd = mkdtempSync(path.join(tmpdir(), `baton-unreachable-${name}-`));
    made.push(cwd);
    execFileSync('git', ['init', '-q'], { cwd });
    const cli = await prepareAgentCli(name, { serverUrl: closedUrl, cwd });
    made.push(cli.home);
    const provider = createProvider(name, { type: name, binary: cli.bin, env: cli.ownEnv }, { killGraceMs: 2_000 });
    // The default agent time limit: the run must end on its own account, not on this one.
    const result = await provider.run({ prompt: '--- RETRY CONTEXT ---\nWrite a.txt.', cwd, timeoutMs: 900_000 });
    expect(result.outcome.kind).toBe('overloaded');
    expect(result.outcome.reason).toContain(`${closedUrl}/v1`);
    if (name === 'codex')
      expect(result.outcome.reason).toMatch(
        new RegExp(`could not reach its model endpoint .* stopped after ${RECONNECTS} reconnect attempts?$`),
      );
  });
});
