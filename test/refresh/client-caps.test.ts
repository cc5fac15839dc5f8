import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { FORMAT_TOKEN_CAPS, GitCache, REFRESH_FORMATS, refreshContext, refreshTasks } from '../../src/refresh/index.js';
import { countTokens } from '../../src/tokens/index.js';
import { BURIED_ERROR, seedBusyWorkspace } from './busy-ledger.js';
import type { Loose, makeRepo } from './helpers.js';

// Issue 11: what clients forward must hold the caps. Claude Code forwards structuredContent (the
// context plus metadata, as JSON), other clients the text block: both are measured here.
let ledger: MemoryLedger;
let repo: ReturnType<typeof makeRepo>;
const gitCache = new GitCache();

beforeAll(async () => {
  ledger = new MemoryLedger();
  repo = await seedBusyWorkspace(ledger, 49);
}, 60_000);

afterAll(() => repo.cleanup());

function forms(result: { text: string; structured: Record<string, unknown> }) {
  return { text: countTokens(result.text), structured: countTokens(JSON.stringify(result.structured)) };
}

describe('refresh_context on a busy ledger, as clients receive it', () => {
  it.each(REFRESH_FORMATS)('%s: text and structuredContent both within the cap; token_estimate is the larger', async (format) => {
    const result = await refreshContext({ workspace: repo.dir, ledger, gitCache, taskId: 'busy', format, audit: false });
    const sent = forms({ text: result.text, structured: { ...result.context, metadata: result.metadata } });
    expect(sent.text).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
    expect(sent.structured).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
    expect(result.metadata.token_estimate).toBe(Math.max(sent.text, sent.structured));
  });

  it('narrative carries its continuation prompt once (in the markdown), not again as a field', async () => {
    const result = await refreshContext({ workspace: repo.dir, ledger, gitCache, taskId: 'busy', format: 'narrative', audit: false });
    expect(Object.keys(result.context)).toEqual(['markdown']);
    const structured = JSON.stringify({ ...result.context, metadata: result.metadata });
    expect(structured.split('Verification Checklist').length - 1).toBe(1);
  });

  it('detailed keeps the diff, the modified files, the README and the artifacts ahead of long attempt results', async () => {
    const result = await refreshContext({ workspace: repo.dir, ledger, gitCache, taskId: 'busy', format: 'detailed', audit: false });
    const context = result.context as Loose;
    expect(context.git_diff).toContain('diff --git');
    expect(context.modified_files).toHaveLength(68); // 67 files and the untracked .agent/ folder
    expect(context.task_readme).toContain('The /orders endpoint answers 500');
    expect(context.task_artifacts.artifacts).toEqual([expect.stringMatching(/^plan\.md \(\d+ bytes\)$/)]);
    expect(context.artifact_contents['plan.md']).toContain('fix the pool');
    expect(context.tracking_log_contents['001.md']).toContain('suspect the pool size');
    // Long results were cut to their error lines first (the latest attempt keeps its full result).
    const older = context.recent_dispatches.slice(1) as Array<{ result?: string }>;
    expect(older.length).toBeGreaterThan(0);
    for (const d of older) expect(d.result).toContain(BURIED_ERROR);
    expect(older.some((d) => d.result === BURIED_ERROR)).toBe(true);
    // The dropped list is counts, not names: a few short entries.
    expect(JSON.stringify(result.metadata.dropped).length).toBeLessThan(200);
    for (const entry of result.metadata.dropped) expect(entry).toMatch(/^[a-z_]+(: \d+)?$/);
  });
});

describe('several task_ids share the cap', () => {
  const ids = (n: number) => ['busy', ...Array.from({ length: n - 1 }, (_, i) => `t${i + 1}`)];

  it.each(REFRESH_FORMATS.flatMap((format) => [1, 10, 50].map((n) => [format, n] as const)))(
    '%s with %i tasks: within the cap in both forms, never an error',
    async (format, n) => {
      const result = await refreshTasks(ids(n), { workspace: repo.dir, ledger, gitCache, format, audit: false });
      const sent = forms(result);
      expect(sent.text).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
      expect(sent.structured).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
      expect(result.metadata.token_estimate).toBe(Math.max(sent.text, sent.structured));
      const { requested, full, headline_only, omitted } = result.metadata.tasks;
      expect(requested).toBe(n);
      expect(full + headline_only + omitted).toBe(n);
      // The first task listed is always there; every task is at least named when room allows.
      expect(result.contexts[0]?.task_id).toBe('busy');
      if (n === 1) expect(full).toBe(1);
      if (omitted > 0 || headline_only > 0) expect(result.metadata.warnings[0]).toMatch(/tasks share the .* cap/);
    },
  );

  it('ten tasks in standard each get a real context (fair share), not just a headline', async () => {
    const result = await refreshTasks(ids(10), { workspace: repo.dir, ledger, gitCache, format: 'standard', audit: false });
    expect(result.metadata.tasks.full).toBe(10);
    for (const c of result.contexts) expect((c.context as Loose).current_task.id).toBe(c.task_id);
  });

  it('fifty tasks in detailed still name every task', async () => {
    const result = await refreshTasks(ids(50), { workspace: repo.dir, ledger, gitCache, format: 'detailed', audit: false });
    expect(result.contexts).toHaveLength(50);
  });
});
