import { describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { buildHelperPrompt, buildTaskPrompt, loadPromptState } from '../../src/prompt/index.js';

const task = {
  id: 'api_health',
  instructions: 'Add a /health endpoint.',
  intent: 'Let the load balancer probe the API.',
  acceptanceCriteria: [{ description: 'GET /health returns 200', check: 'npm test' }, { description: 'Documented in README' }],
};

describe('buildTaskPrompt', () => {
  it('renders seed 000 sections with recent_history and active_blockers always present', () => {
    const prompt = buildTaskPrompt(task, { recent_history: [], active_blockers: [] }, { workingDirectory: '/work/app' });
    expect(prompt).toMatchInlineSnapshot(`
      "## Task ID
      api_health

      ## Task Description
      Add a /health endpoint.

      ## Intent
      Let the load balancer probe the API.

      ## Acceptance Criteria
      - GET /health returns 200
      - Documented in README

      ## READ-ONLY CONTEXT — DO NOT MODIFY
      {
        "recent_history": [],
        "active_blockers": []
      }

      ## Rules
      - Work only inside the working directory below.
      - The READ-ONLY CONTEXT is for reference: do not modify it, do not redo recent_history work,
        and do not build on tasks listed in active_blockers.
      - Meet every acceptance criterion; Baton checks them itself and measures the files you change.
      - Do not claim work you did not do.

      ## Output Format
      End with a short plain-text summary of what you changed and why.
      If you cannot finish, say what blocked you.

      ## Working Directory
      /work/app
      "
    `);
  });
});

describe('loadPromptState', () => {
  it('shows the last N completed tasks newest first and every blocked task with its reason', async () => {
    let clock = 1_700_000_000_000;
    const ledger = new MemoryLedger(() => clock);
    for (let i = 1; i <= 7; i++) {
      await ledger.createTask({ id: `t${i}`, title: `task ${i}`, intent: `intent ${i}` });
      clock += 1000;
      await ledger.updateTask(`t${i}`, { status: 'completed', resultSummary: `did ${i}` });
    }
    await ledger.createTask({ id: 'stuck', title: 'stuck' });
    await ledger.updateTask('stuck', { status: 'blocked', blockReason: 'Validation failed after 3 attempts' });

    const state = await loadPromptState(ledger, { window: 3 });
    expect(state.recent_history.map((h) => h.task_id)).toEqual(['t7', 't6', 't5']);
    expect(state.recent_history[0]).toEqual({
      task_id: 't7',
      completed_at: new Date(1_700_000_007_000).toISOString(),
      intent: 'intent 7',
      result: 'did 7',
    });
    expect(state.active_blockers).toEqual([{ task_id: 'stuck', reason: 'Validation failed after 3 attempts' }]);
    expect((await loadPromptState(ledger)).recent_history).toHaveLength(5);
  });

  it('cuts long result summaries and masks secrets in them', async () => {
    const ledger = new MemoryLedger();
    await ledger.createTask({ id: 'a', title: 'a' });
    await ledger.updateTask('a', {
      status: 'completed',
      resultSummary: `token ghp_${'A'.repeat(36)} ${'long words '.repeat(300)}`,
    });
    const [entry] = (await loadPromptState(ledger)).recent_history;
    expect(entry?.result).not.toContain('A'.repeat(36));
    expect(entry?.result?.length).toBeLessThan(400);
  });
});

describe('buildHelperPrompt', () => {
  it('numbers the failed criteria and asks for JSON commands', () => {
    const prompt = buildHelperPrompt({
      agentResponse: 'x'.repeat(6000),
      failedCriteria: ['README mentions greet', 'tests pass'],
      workingDirectory: '/w',
      codeFiles: ['greet.js'],
    });
    expect(prompt.startsWith('## Enhanced Verification Task\nYou are a Helper Agent. Your task is to VERIFY, not assume.')).toBe(true);
    expect(prompt).toContain('1. README mentions greet\n2. tests pass');
    expect(prompt).toContain('{"commands":[');
    expect(prompt).not.toContain('x'.repeat(5001));
  });
});

describe('loadPromptState from code rejects options of another shape, by name (buildTaskPrompt is a pure builder: it trusts its types)', () => {
  it('names an unknown loadPromptState option with the spelling expected', async () => {
    await expect(loadPromptState(new MemoryLedger(), { excludeTaskId: 'a' } as never)).rejects.toThrow(
      'loadPromptState: options: unknown key "excludeTaskId" (expected one of: window, maxBlockers, resultTokens, sessions, workspace)',
    );
  });
});
