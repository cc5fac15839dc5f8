import { describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { renderMetrics } from '../../src/observability/index.js';
import { GitCache, refreshContext } from '../../src/refresh/index.js';
import { makeRepo } from './helpers.js';

describe('refresh_context metrics', () => {
  it('records each call once prom-client has loaded (after the answer, not before it)', async () => {
    const repo = makeRepo({ 'README.md': 'metrics\n' });
    try {
      const count = async () =>
        Number(/baton_refresh_total\{format="minimal",git_cache="[a-z]+"\} (\d+)/.exec(await renderMetrics())?.[1] ?? 0);
      const before = await count();
      await refreshContext({ workspace: repo.dir, ledger: new MemoryLedger(), format: 'minimal', gitCache: new GitCache() });
      let after = await count();
      for (let i = 0; i < 50 && after === before; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        after = await count();
      }
      expect(after).toBe(before + 1);
      expect(await renderMetrics()).toMatch(/baton_refresh_tokens_count\{format="minimal"\} [1-9]/);
    } finally {
      repo.cleanup();
    }
  });
});
