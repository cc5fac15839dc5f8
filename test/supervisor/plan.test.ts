import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { loadPlan, parsePlan } from '../../src/supervisor/index.js';

function expectInvalid(fn: () => unknown, ...fragments: string[]) {
  try {
    fn();
  } catch (error) {
    expect(isBatonError(error, 'INPUT_INVALID')).toBe(true);
    for (const f of fragments) expect((error as Error).message).toContain(f);
    return;
  }
  throw new Error('expected INPUT_INVALID');
}

describe('plan files', () => {
  it('reads JSON and YAML with seed 000 spellings and orders tasks by dependency, then priority', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'baton-plan-'));
    const file = path.join(dir, 'plan.json');
    writeFileSync(
      file,
      JSON.stringify({
        tasks: [
          { task_id: 'c', instructions: 'C', depends_on: ['a', 'b'] },
          { id: 'a', instructions: 'A', acceptance_criteria: ['plain string', { description: 'd', check: 'true' }] },
          {
            id: 'b',
            instructions: 'B',
            priority: 5,
            retry_policy: { max_retries: 5 },
            options: { enable_pre_context: false },
            agent_mode: 'coder',
          },
        ],
      }),
    );
    const plan = await loadPlan(file);
    expect(plan.tasks.map((t) => t.id)).toEqual(['b', 'a', 'c']);
    expect(plan.tasks[1]?.acceptanceCriteria).toEqual([{ description: 'plain string' }, { description: 'd', check: 'true' }]);
    expect(plan.tasks[0]).toMatchObject({ maxRetries: 5, options: { enable_pre_context: false }, agentMode: 'coder', priority: 5 });
    const yaml = parsePlan('tasks:\n  - id: y\n    instructions: Y\n', 'p.yaml');
    expect(yaml.tasks[0]).toMatchObject({ id: 'y', title: 'y', intent: '', dependsOn: [] });
  });

  it('names the task id and the field path of each problem', () => {
    expectInvalid(
      () =>
        parsePlan(
          JSON.stringify({
            tasks: [
              { id: 'ok', instructions: 'x' },
              { id: 'api', instructions: 'x', acceptance_criteria: [{ check: 'true' }] },
            ],
          }),
          'p.json',
        ),
      'p.json',
      'tasks[1] (id "api").acceptance_criteria[0]',
    );
    expectInvalid(
      () => parsePlan('{"tasks":[{"id":"t","instructions":"x","retry_policy":{"max_retries":0}}]}', 'p.json'),
      'tasks[0] (id "t").retry_policy.max_retries',
    );
    expectInvalid(() => parsePlan('{"tasks":[{"instructions":"x"}]}', 'p.json'), 'tasks[0].id');
    expectInvalid(() => parsePlan('tasks: [', 'p.yaml'), 'not valid YAML');
  });

  it('rejects a key it does not know, naming the task and the spelling it expects, at every level', () => {
    const camel = { tasks: [{ id: 'api', instructions: 'x', acceptanceCriteria: [{ description: 'd', check: 'true' }] }] };
    expectInvalid(
      () => parsePlan(JSON.stringify(camel), 'p.json'),
      'Plan file p.json: tasks[0] (id "api"): unknown key "acceptanceCriteria" (did you mean "acceptance_criteria"?)',
    );
    try {
      parsePlan(
        'tasks:\n  - task_id: t\n    instructions: x\n    dependsOn: []\n    retry_policy: {maxRetries: 2}\n    acceptance_criteria: [{description: d, chek: "true"}]\ntask: 1\n',
        'p.yaml',
      );
      throw new Error('expected INPUT_INVALID');
    } catch (error) {
      expect(isBatonError(error, 'INPUT_INVALID')).toBe(true);
      const problems = (error as { details: { problems: { field: string; suggestion?: string }[] } }).details.problems;
      expect(problems.map((p) => [p.field, p.suggestion])).toEqual(
        expect.arrayContaining([
          ['tasks[0] (id "t").dependsOn', 'depends_on'],
          ['tasks[0] (id "t").retry_policy.maxRetries', 'max_retries'],
          ['tasks[0] (id "t").acceptance_criteria[0].chek', 'check'],
          ['task', undefined],
        ]),
      );
      expect((error as Error).message).toContain('Plan file p.yaml is invalid:');
    }
    // A task's own options stay the user's map: any key passes through.
    expect(parsePlan('{"tasks":[{"id":"a","instructions":"x","options":{"mine":1}}]}', 'p.json').tasks[0]?.options).toEqual({ mine: 1 });
  });

  it('rejects unknown dependencies, duplicates and cycles', () => {
    expectInvalid(
      () => parsePlan('tasks: [{id: a, instructions: x, depends_on: [zz]}]', 'p.yaml'),
      'tasks[0] (id "a").depends_on[0]: unknown task "zz"',
    );
    expectInvalid(() => parsePlan('tasks: [{id: a, instructions: x}, {id: a, instructions: y}]', 'p.yaml'), 'duplicate task id');
    expectInvalid(
      () => parsePlan('tasks: [{id: a, instructions: x, depends_on: [b]}, {id: b, instructions: y, depends_on: [a]}]', 'p.yaml'),
      'cycle among tasks "a", "b"',
    );
  });

  it('names an unknown option of loadPlan', async () => {
    await expect(loadPlan('plan.yaml', { workspaceDir: '/tmp' } as never)).rejects.toThrow(
      'loadPlan: options: unknown key "workspaceDir" (expected one of: cwd)',
    );
  });

  it('reports a missing file by path', async () => {
    await expect(loadPlan('/nonexistent/plan.yaml')).rejects.toThrow('/nonexistent/plan.yaml');
  });
});
