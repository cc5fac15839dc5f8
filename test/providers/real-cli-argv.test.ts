import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, type ExpectStatic, it } from 'vitest';
import { createProvider, MAX_ARGV_PROMPT_BYTES } from '../../src/providers/index.js';
import { type AgentCliName, AGENT_CLIS, ensureClients, prepareAgentCli } from '../helpers/agent-clis/index.js';
import { type ModelServer, say, startModelServer } from '../helpers/model-server/index.js';

/**
 * Each adapter's command line against each real CLI's own argument parser (the pinned versions in
 * ~/.cache/baton-clients), through Baton's provider: a prompt starting with `-` or `---` (every
 * seam block) must reach the model as the prompt, verbatim, and so must one too big for argv. cursor-agent is not installable here:
 * test/providers/agent-argv.test.ts checks its command line against a commander stand-in.
 */
const PROMPTS = [
  '-x starts like a flag',
  // Over MAX_ARGV_PROMPT_BYTES: on stdin, which each CLI must read as the whole prompt.
  `--- RETRY CONTEXT ---\n${'word '.repeat(21_000)}\nEND-MARKER`,
  '--- PROVIDER SWITCH CONTEXT ---\nPrevious provider (limited) failed: rate_limited\n--- END CONTEXT ---\n\n## Task ID\nargv-check\n',
];

let found: Partial<Record<AgentCliName, string>> = {};
const made: string[] = [];
beforeAll(async () => {
  found = await ensureClients(AGENT_CLIS, 'real-cli-argv');
});
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

// The CLIs run at once, each with its own model server (whose turns the test reads) and folders.
describe.concurrent('a prompt starting with "-" or "---" reaches each real CLI as its prompt', () => {
  it('has a prompt too big for one argument', ({ expect }) => {
    expect(Buffer.byteLength(PROMPTS[1]!)).toBeGreaterThan(MAX_ARGV_PROMPT_BYTES);
  });

  it.for(AGENT_CLIS)('%s', { timeout: 600_000 }, async (name, { expect, skip }) => {
    if (!found[name]) skip();
    const server = await startModelServer({ respond: () => say('Received.') });
    try {
      await promptsReach(name, server, expect);
    } finally {
      await server.close();
    }
  });
});

/** Runs each of PROMPTS through `name`'s provider against `server`, checking the model got it whole. */
async function promptsReach(name: AgentCliName, server: ModelServer, expect: ExpectStatic): Promise<void> {
  const cwd = mkdtempSync(path.join(tmpdir(), `baton-argv-${name}-`));
  made.push(cwd);
  execFileSync('git', ['init', '-q'], { cwd });
  const cli = await prepareAgentCli(name, { serverUrl: server.url, cwd });
  made.push(cli.home);
  // A configured arg too: it must land where the CLI accepts options, not in the prompt.
  const args = {
    claude: ['--max-turns', '3'],
    gemini: ['--debug'],
    codex: ['-c', 'model_reasoning_effort="low"'],
    copilot: ['--no-auto-update'],
  }[name];
  const provider = createProvider(name, { type: name, binary: cli.bin, env: cli.ownEnv, args });
  for (const prompt of PROMPTS) {
    const before = server.turns.length;
    const result = await provider.run({ prompt, cwd, timeoutMs: 240_000 });
    expect(result.outcome, result.output.slice(-2_000)).toEqual({ kind: 'ok' });
    const turns = server.turns.slice(before);
    expect(turns.length).toBeGreaterThan(0);
    // The prompt arrived whole, as the user's text (clients add their own context around it).
    expect(turns.every((t) => t.text.includes(prompt.trim()))).toBe(true);
    expect(result.response).toBe('Received.');
  }
  expect(server.problems).toEqual([]);
}
