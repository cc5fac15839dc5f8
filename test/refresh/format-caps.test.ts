import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryLedger } from '../../src/ledger/index.js';
import { FORMAT_TOKEN_CAPS, REFRESH_FORMATS, refreshContext } from '../../src/refresh/index.js';
import { countTokens } from '../../src/tokens/index.js';
import { bigLedger, makeRepo, writeFiles, type Loose } from './helpers.js';

let ledger: MemoryLedger;
let repo: ReturnType<typeof makeRepo>;

beforeAll(async () => {
  ledger = await bigLedger(10_000, 100_000);
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i += 1) files[`src/module${i}.ts`] = `export const value${i} = ${i};\n`.repeat(50);
  repo = makeRepo(files);
  // A large working-tree change so detailed has a diff far beyond its budget.
  for (let i = 0; i < 60; i += 1)
    writeFileSync(path.join(repo.dir, `src/module${i}.ts`), `export const changed${i} = '${'y'.repeat(80)}';\n`.repeat(80));
  writeFiles(repo.dir, {
    '.agent/tasks/t9999_billing/README.md': `# Task t9999\n${'Background paragraph about billing. '.repeat(600)}`,
    '.agent/tasks/t9999_billing/tracking/001.md': 'progress '.repeat(3000),
    '.agent/tasks/t9999_billing/artifacts/plan.md': 'plan step '.repeat(3000),
  });
  execFileSync('git', ['add', 'src'], { cwd: repo.dir });
}, 120_000);

afterAll(() => repo.cleanup());

describe('format caps on a 10,000-task, 100,000-dispatch ledger', () => {
  it.each(REFRESH_FORMATS)('%s stays within its hard cap, measured with the real tokenizer', async (format) => {
    const result = await refreshContext({
      workspace: repo.dir,
      ledger,
      format,
      taskId: 't9999',
      dispatchLimit: 100,
      includeResearch: true,
      includeTaskArtifacts: true,
      audit: false,
    });
    // Both forms a client may forward: the text block, and structuredContent (context + metadata) as JSON.
    const text = countTokens(result.text);
    const structured = countTokens(JSON.stringify({ ...result.context, metadata: result.metadata }));
    expect(result.metadata.token_estimate).toBe(Math.max(text, structured));
    expect(text).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
    expect(structured).toBeLessThanOrEqual(FORMAT_TOKEN_CAPS[format]);
    expect(result.metadata.token_budget).toBe(FORMAT_TOKEN_CAPS[format]);
    // The budget was actually under pressure: something had to give.
    if (format !== 'minimal') expect(result.metadata.dropped.length + result.metadata.trimmed.length).toBeGreaterThan(0);
    expect(result.metadata.format).toBe(format);
  });

  it('keeps the always-included fields (§3.2) when the budget is tight', async () => {
    const result = await refreshContext({
      workspace: repo.dir,
      ledger,
      format: 'standard',
      taskId: 't9999',
      dispatchLimit: 100,
      audit: false,
    });
    const context = result.context as Loose;
    expect(context.current_task.id).toBe('t9999');
    expect(context.current_task.status).toBeDefined();
    expect(context.git_status.branch).toBe('main');
    expect(context.git_status.uncommitted_changes).toBeGreaterThan(0);
    expect(context.recent_dispatches[0].task_id).toBe('t9999');
    expect(result.continuation_prompt).toContain('**Verification Checklist**');
  });

  it('standard lists 60 changed files as a summary in the prompt, not one by one (§3.2)', async () => {
    const result = await refreshContext({ workspace: repo.dir, ledger, format: 'standard', taskId: 't9999', audit: false });
    expect(result.continuation_prompt).toMatch(/6\d files changed .*by top folder: src \(6\d\)/);
  });

  it('detailed includes the full diff, cut to fit', async () => {
    const result = await refreshContext({ workspace: repo.dir, ledger, format: 'detailed', taskId: 't9999', audit: false });
    expect(String(result.context.git_diff)).toContain('diff --git');
    expect(result.metadata.trimmed).toContain('git_diff');
  });

  it('picks the most recently active task when none is named', async () => {
    const result = await refreshContext({ workspace: repo.dir, ledger, format: 'minimal', audit: false });
    // The newest dispatch belongs to t9999, which is not completed.
    expect((result.context as Loose).current_task.id).toBe('t9999');
  });
});
