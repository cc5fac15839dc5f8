import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutcomeKind } from '../../src/ledger/index.js';
import { type AgentCliType, AGENT_CLI_SPECS, createProvider } from '../../src/providers/index.js';

/**
 * Opt-in (BATON_REAL_CLIS=1): runs the real agent CLIs, offline and without credentials, from
 * BATON_AGENT_BIN_DIR (default /tmp/agent-clis/node_modules/.bin) and checks Baton classifies what
 * they really do. A CLI that is not installed is skipped.
 */
const enabled = process.env.BATON_REAL_CLIS === '1';
const binDir = process.env.BATON_AGENT_BIN_DIR ?? '/tmp/agent-clis/node_modules/.bin';

/** What each CLI does offline with an empty HOME (see test/fixtures/agents). */
const EXPECTED: Partial<Record<AgentCliType, OutcomeKind[]>> = {
  gemini: ['auth_failed'],
  claude: ['auth_failed'],
  copilot: ['auth_failed'],
  // Without credentials codex waits for the network until Baton's wall clock stops it.
  codex: ['timeout', 'auth_failed'],
};

describe.skipIf(!enabled)('real agent CLIs (BATON_REAL_CLIS=1)', () => {
  for (const [type, kinds] of Object.entries(EXPECTED) as [AgentCliType, OutcomeKind[]][]) {
    const binary = path.join(binDir, AGENT_CLI_SPECS[type].defaultBinary);
    it.skipIf(!existsSync(binary))(
      `${type} without credentials classifies as ${kinds.join(' or ')}`,
      async () => {
        const home = await mkdtemp(path.join(tmpdir(), 'baton-real-home-'));
        const cwd = await mkdtemp(path.join(tmpdir(), 'baton-real-ws-'));
        try {
          const provider = createProvider(type, { type, binary, env: { HOME: home } }, { killGraceMs: 2_000 });
          const result = await provider.run({ prompt: 'Create hello.txt containing hi', cwd, timeoutMs: 15_000 });
          expect(kinds).toContain(result.outcome.kind);
        } finally {
          await rm(home, { recursive: true, force: true });
          await rm(cwd, { recursive: true, force: true });
        }
      },
      60_000,
    );
  }
});
