/**
 * Baton's hooks inside the real Codex CLI (pinned 0.171.0), headless, against the scripted model
 * server, installed with `baton hooks install` (user scope: the test's throwaway CODEX_HOME): a
 * session's file and failure in its resumes and in the next session's first request; its
 * auto-compaction in the middle of a turn, after which the next request carries Baton's context;
 * hooks that hang or fail leave the run and its model requests as they are without hooks.
 */
import { describe, expect, it } from 'vitest';
import { CONTEXT_TITLE } from '../../src/hooks/index.js';
import {
  FAILURE,
  hangOrFailSuite,
  harness,
  MISSING_DIR,
  sessionCarrySuite,
  TEST_TIMEOUT_MS,
  useClients,
} from '../helpers/hooks-real-clients/index.js';
import { clientTools, say } from '../helpers/model-server/index.js';

const available = useClients(['codex'], 'hooks');

sessionCarrySuite('codex', available);

describe('after a compaction the next request carries Baton’s context', () => {
  it(
    'Codex CLI: its auto-compaction in the middle of a turn, then the next request',
    async (ctx) => {
      if (!available.codex) return ctx.skip();
      const h = await harness('codex', { codexToml: 'model_auto_compact_token_limit = 5000\nmodel_context_window = 20000' });
      let calls = 0;
      const { server } = await h.session((view) => {
        calls += 1;
        if (calls > 8) return say('Giving up.');
        if (view.text.includes('The conversation was just compacted')) return say('Back on track.');
        // The first call reports a long prompt: Codex compacts before it asks the model again.
        if (view.toolResults.length === 0)
          return { ...clientTools(view.client).runShell(`ls ${MISSING_DIR}`), usage: { inputTokens: 9_000 } };
        return say('Done.');
      }, 'List the missing folder.');
      const afterCompaction = server.turns.find((view) => view.text.includes(CONTEXT_TITLE));
      expect(afterCompaction?.text).toContain('The conversation was just compacted');
      expect(afterCompaction?.text).toContain(FAILURE);
    },
    TEST_TIMEOUT_MS,
  );
});

hangOrFailSuite('codex', available);
