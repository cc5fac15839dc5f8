/**
 * Baton's hooks inside the real Claude Code (pinned 2.1.197), headless, against the scripted model
 * server, installed with `baton hooks install` into a project that has Baton as a dev dependency
 * (node_modules/.bin/baton): a session's file and failure in its resumes and in the next session's
 * first request; `/compact`, after which the next request carries Baton's context; hooks that hang
 * or fail leave the run and its model requests as they are without hooks. (Gemini and Codex: their
 * own real-clients-*.test.ts files, which run on other test workers at the same time.)
 */
import { describe, expect, it } from 'vitest';
import {
  FAILURE,
  hangOrFailSuite,
  harness,
  sessionCarrySuite,
  sessionIdOf,
  sessionRecord,
  TEST_TIMEOUT_MS,
  useClients,
  workingSession,
} from '../helpers/hooks-real-clients/index.js';
import { say } from '../helpers/model-server/index.js';

const available = useClients(['claude'], 'hooks');

sessionCarrySuite('claude', available);

describe('after a compaction the next request carries Baton’s context', () => {
  it(
    'Claude Code: claude -p "/compact" --resume ID, then the next request',
    async (ctx) => {
      if (!available.claude) return ctx.skip();
      const h = await harness('claude');
      const first = await h.session(workingSession, 'Make hello.txt, then list the missing folder.');
      const id = sessionIdOf('claude', first.stdout);
      await h.session(() => say('Summary.'), '/compact', ['--resume', id]);
      const after = await h.session(() => say('Continuing.'), 'Continue where we were.', ['--resume', id]);
      const text = after.server.turns[0]?.text ?? '';
      expect(text).toContain('The conversation was just compacted');
      expect(text).toContain('created hello.txt');
      expect(text).toContain(FAILURE);
      expect((await sessionRecord(h.repo, `claude-${id}`))?.data.compactions).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );
});

hangOrFailSuite('claude', available);
