/**
 * Baton's hooks inside the real Claude Code (pinned 2.1.197) at the edges of a session: sessions
 * that did nothing (`claude mcp list`) are neither recorded nor counted, and a turn cut off by a
 * usage limit (a 429 it gives up on) ends its session as such and is the first thing the next
 * session hears. Set-up as in real-clients-claude.test.ts.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTEXT_TITLE } from '../../src/hooks/index.js';
import { type AgentSessionData, openLedger } from '../../src/ledger/index.js';
import { runProcess } from '../helpers/agent-clis/index.js';
import { FAILURE, harness, sessionIdOf, TEST_TIMEOUT_MS, useClients, workingSession } from '../helpers/hooks-real-clients/index.js';
import { clientTools, fail, say } from '../helpers/model-server/index.js';

const available = useClients(['claude'], 'hooks');

describe('sessions that did nothing are neither recorded nor counted', () => {
  it(
    'Claude Code: six `claude mcp list` runs (each fires SessionStart and SessionEnd) leave no record, and the next session still gets the failure',
    async (ctx) => {
      if (!available.claude) return ctx.skip();
      const h = await harness('claude');
      const first = await h.session(workingSession, 'Make hello.txt, then list the missing folder.');
      const firstId = sessionIdOf('claude', first.stdout);
      const states = () => readdirSync(path.join(h.repo, '.baton/hooks/sessions')).filter((name) => name.endsWith('.json'));
      const before = states().length;
      for (let i = 0; i < 6; i += 1) {
        const run = await runProcess(h.cli.bin, ['mcp', 'list'], { cwd: h.repo, env: h.cli.env, timeoutMs: 120_000 });
        expect(run.code, run.stderr).toBe(0);
      }
      // The hooks did fire: each run's SessionStart left its session's state file.
      expect(states().length).toBeGreaterThan(before);
      const ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: h.repo });
      const ids = await ledger.listRecords('agent_sessions', { limit: 50 }).finally(() => ledger.close());
      expect(ids.items.map((record) => record.id)).toEqual([`claude-${firstId}`]);

      const next = await h.session(() => say('Noted.'), 'What is left to do here?');
      expect(next.server.turns[0]?.text).toContain(FAILURE);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('a turn cut off by a usage limit', () => {
  it(
    'Claude Code: a 429 it gives up on fires StopFailure ("rate_limit"); the session ends as a usage limit, and the next session hears it first',
    async (ctx) => {
      if (!available.claude) return ctx.skip();
      const h = await harness('claude');
      const limited = await h.attempt(
        (view) => (view.toolResults.length === 0 ? clientTools(view.client).writeFile('hello.txt', 'hi\n') : fail(429, { retryAfter: 1 })),
        'Make hello.txt, then tell me about it.',
        { CLAUDE_CODE_MAX_RETRIES: '0' },
      );
      expect(limited.code).not.toBe(0);
      const ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: h.repo });
      const records = await ledger.listRecords<AgentSessionData>('agent_sessions', { limit: 5 }).finally(() => ledger.close());
      expect(records.items[0]?.data).toMatchObject({ endReason: 'usage limit', cutOff: { error: 'rate_limit' } });
      expect(records.items[0]?.data.filesCreated).toContain('hello.txt');

      const next = await h.session(() => say('Noted.'), 'Carry on.');
      const body = (next.server.turns[0]?.text ?? '').split(CONTEXT_TITLE)[1] ?? '';
      expect(body).toContain('The last turn was cut off by a usage limit');
      expect(body.indexOf('cut off by a usage limit')).toBeLessThan(body.indexOf('## Sessions in this workspace'));
      expect(body).toContain('ended (usage limit)');
    },
    TEST_TIMEOUT_MS,
  );
});
