import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import type { OutcomeKind } from '../../src/ledger/index.js';
import { type AgentCliType, createProvider } from '../../src/providers/index.js';
import { type AgentCliName, ensureClients } from '../helpers/agent-clis/index.js';

/**
 * The pinned agent CLIs (test/helpers/agent-clis installs them into a cache), run offline and
 * without credentials: Baton classifies what they really do. A CLI that cannot be installed is
 * skipped with a visible warning.
 */

/** What each CLI does offline with an empty HOME (see test/fixtures/agents). */
const EXPECTED: Partial<Record<AgentCliType, OutcomeKind[]>> = {
  gemini: ['auth_failed'],
  claude: ['auth_failed'],
  copilot: ['auth_failed'],
  // Without credentials codex waits for the network until Baton's wall clock stops it (or, after
  // its reconnect notices, Baton stops it as an unreachable endpoint).
  codex: ['timeout', 'auth_failed', 'overloaded'],
};

/** Codex only ever waits; the others answer at once, given time to start on a loaded machine. */
const RUN_TIMEOUT_MS: Partial<Record<AgentCliType, number>> = { codex: 15_000 };

let available: Partial<Record<AgentCliName, string>> = {};
beforeAll(async () => {
  available = await ensureClients(Object.keys(EXPECTED) as AgentCliName[], 'real-clis');
}, 600_000);

// The CLIs run at once (each in its own HOME and folder): the others no longer wait for Codex's 15 s.
describe.concurrent('real agent CLIs without credentials', () => {
  for (const [type, kinds] of Object.entries(EXPECTED) as [AgentCliType, OutcomeKind[]][]) {
    it(`${type} without credentials classifies as ${kinds.join(' or ')}`, async ({ expect, skip }) => {
      const binary = available[type as AgentCliName];
      if (!binary) return skip();
      const home = await mkdtemp(path.join(tmpdir(), 'baton-real-home-'));
      const cwd = await mkdtemp(path.join(tmpdir(), 'baton-real-ws-'));
      try {
        const provider = createProvider(type, { type, binary, env: { HOME: home } }, { killGraceMs: 2_000 });
        const result = await provider.run({ prompt: 'Create hello.txt containing hi', cwd, timeoutMs: RUN_TIMEOUT_MS[type] ?? 60_000 });
        expect(kinds).toContain(result.outcome.kind);
      } finally {
        await rm(home, { recursive: true, force: true });
        await rm(cwd, { recursive: true, force: true });
      }
    }, 120_000);
  }
});
