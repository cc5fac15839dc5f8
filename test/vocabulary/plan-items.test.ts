import { describe, expect, it } from 'vitest';
import { applyPlan, createdPlanItemId, describeToolCall, openPlanItems, planListOf, planStatus } from '../../src/vocabulary/index.js';

const change = (name: string, args: unknown) => {
  const d = describeToolCall(name, args);
  if (!d.plan || !d.planMode) throw new Error(`${name} set no plan`);
  return { plan: d.plan, planMode: d.planMode };
};

describe('plans', () => {
  it('replaces the list on TodoWrite, update_plan and write_todos', () => {
    const first = applyPlan([], change('TodoWrite', { todos: [{ content: 'a', status: 'pending' }] }));
    const next = applyPlan(
      first,
      change('update_plan', {
        plan: [
          { step: 'b', status: 'completed' },
          { step: 'c', status: 'in_progress' },
        ],
      }),
    );
    expect(next).toEqual([
      { text: 'b', status: 'completed' },
      { text: 'c', status: 'in_progress' },
    ]);
    expect(openPlanItems(next)).toEqual([{ text: 'c', status: 'in_progress' }]);
  });

  it('numbers TaskCreate items as Claude does and applies TaskUpdate by id', () => {
    let plan = applyPlan([], change('TaskCreate', { subject: 'Create the module' }));
    plan = applyPlan(
      plan,
      change('TaskCreate', { subject: 'Write the view' }),
      createdPlanItemId('Task #2 created successfully: Write the view'),
    );
    plan = applyPlan(plan, change('TaskUpdate', { taskId: '1', status: 'completed' }));
    expect(plan).toEqual([
      { text: 'Create the module', status: 'completed', id: '1' },
      { text: 'Write the view', status: 'pending', id: '2' },
    ]);
  });

  it("reads a markdown checklist (Copilot's update_todo) and status words", () => {
    expect(planListOf('- [x] done it\n- [ ] next one\n* plain')).toEqual([
      { text: 'done it', status: 'completed' },
      { text: 'next one', status: 'pending' },
      { text: 'plain', status: 'pending' },
    ]);
    expect([planStatus('done'), planStatus('in-progress'), planStatus('whatever'), planStatus(undefined)]).toEqual([
      'completed',
      'in_progress',
      'pending',
      'pending',
    ]);
  });
});
