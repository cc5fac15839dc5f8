import { describe, expect, it } from 'vitest';
import { materializeDispatch, materializeTask } from '../../src/ledger/index.js';
import { buildContinuationPrompt, type ContextSnapshot, detectContinuationState } from '../../src/refresh/index.js';
import { countTokens } from '../../src/tokens/index.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

function snapshot(overrides: Partial<ContextSnapshot> = {}): ContextSnapshot {
  return {
    workspace: '/work/project',
    generatedAt: NOW,
    task: materializeTask(
      {
        id: 't1',
        title: 'Add CSV export',
        instructions: 'Export the report table as CSV.',
        intent: 'Users need spreadsheets.',
        status: 'in_progress',
        acceptanceCriteria: [{ description: 'CSV has a header row', check: 'npm test -- csv' }, { description: 'Docs mention the export' }],
      },
      NOW - 3 * 3600_000,
    ),
    dependencies: [],
    activeTasks: [],
    dispatches: [],
    debt: [],
    research: [],
    recon: [],
    environment: { cwd: '/work/project', variables: [] },
    sources: ['ledger'],
    warnings: [],
    ...overrides,
  };
}

const failed = materializeDispatch(
  {
    id: 'd7',
    taskId: 't1',
    attempt: 2,
    provider: 'claude',
    status: 'failed',
    outcome: 'validation_failed',
    validationErrors: ['CSV has a header row: expected "id,name"'],
    filesUpdated: ['src/export.ts'],
  },
  7,
  NOW - 3600_000,
);

describe('buildContinuationPrompt', () => {
  it('follows the §3.1 template and ends with the verification checklist from the acceptance criteria', () => {
    const prompt = buildContinuationPrompt(
      snapshot({ dispatches: [{ ...failed, status: 'completed', outcome: 'ok', validationErrors: [] }] }),
      { maxTokens: 2000, now: NOW },
    );
    for (const heading of [
      '# Session Continuation',
      '## Context Restoration',
      '## Task Context',
      '## Known Constraints',
      '## Continuation Instructions',
    ]) {
      expect(prompt).toContain(heading);
    }
    expect(prompt).toContain('You are resuming work on **Add CSV export** (Task ID: t1).');
    expect(prompt.trimEnd().endsWith('- [ ] Docs mention the export')).toBe(true);
    expect(prompt).toContain('- [ ] CSV has a header row (check: `npm test -- csv`)');
  });

  it('says "fresh task" when nothing was attempted yet', () => {
    const s = snapshot({ task: { ...snapshot().task!, status: 'pending' } });
    expect(detectContinuationState(s)).toBe('just_started');
    expect(buildContinuationPrompt(s, { maxTokens: 2000, now: NOW })).toContain('This is a fresh task with no prior progress.');
  });

  it('names the failed dispatch, its error and what it touched after a failed attempt', () => {
    const s = snapshot({ dispatches: [failed] });
    expect(detectContinuationState(s)).toBe('failed_attempt');
    const prompt = buildContinuationPrompt(s, { maxTokens: 2000, now: NOW });
    expect(prompt).toContain('after a failed attempt');
    expect(prompt).toContain('- Dispatch: d7 (attempt 2, claude)');
    expect(prompt).toContain('expected "id,name"');
    expect(prompt).toContain('changed src/export.ts');
    expect(prompt).toContain('**Recovery Strategy**');
  });

  it('says how long the break was when resuming', () => {
    const s = snapshot({
      dispatches: [{ ...failed, status: 'completed', outcome: 'ok', validationErrors: [], finishedAt: NOW - 2 * 3600_000 }],
    });
    expect(detectContinuationState(s)).toBe('resumed_after_break');
    expect(buildContinuationPrompt(s, { maxTokens: 2000, now: NOW })).toContain('after a break. Last activity was 2 hours ago.');
  });

  it('lists blockers and the three options when blocked by an unfinished dependency', () => {
    const s = snapshot({ dependencies: [{ id: 't0', title: 'Schema migration', status: 'in_progress' }] });
    expect(detectContinuationState(s)).toBe('blocked');
    const prompt = buildContinuationPrompt(s, { maxTokens: 2000, now: NOW });
    expect(prompt).toContain('but there are blockers');
    expect(prompt).toContain('Depends on task t0 ("Schema migration"), which is in_progress');
    expect(prompt).toContain('3. Escalate to orchestrator');
  });

  it('stays within its budget and keeps the checklist when the task text is huge', () => {
    const big = snapshot({ task: { ...snapshot().task!, instructions: 'Very long requirement. '.repeat(3000) }, dispatches: [failed] });
    const prompt = buildContinuationPrompt(big, { maxTokens: 400, now: NOW });
    expect(countTokens(prompt)).toBeLessThanOrEqual(400);
    expect(prompt).toContain('**Verification Checklist**');
    expect(prompt).toContain('Docs mention the export');
  });
});
