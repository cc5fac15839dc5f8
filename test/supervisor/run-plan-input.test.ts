/**
 * runPlan's arguments from code: a plan in a plan file's snake_case spelling, an options object
 * with a misspelled key or a value of the wrong type, each an error naming the key and the
 * spelling expected, thrown before anything reaches the ledger. A plan that leaves out the fields
 * a plan file may leave out runs, with the same defaults.
 */
import { describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { MemoryLedger } from '../../src/ledger/index.js';
import { silentLogger } from '../../src/observability/index.js';
import { buildRunReport, type Plan, type RunPlanOptions, runPlan, workspaceOps } from '../../src/supervisor/index.js';
import { agent, makeWorkspace } from './helpers.js';

function setup() {
  const dir = makeWorkspace();
  const ledger = new MemoryLedger();
  const options: RunPlanOptions = {
    ledger,
    providers: [agent('fixer', 'fixer.mjs')],
    workspace: workspaceOps(dir),
    workspaceDir: dir,
    logger: silentLogger,
  };
  return { dir, ledger, options };
}

async function rejection(run: () => Promise<unknown>): Promise<Error & { code?: string; details?: Record<string, unknown> }> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected runPlan to reject');
}

describe('runPlan input checking', () => {
  it('rejects a plan-file spelling in a plan from code, naming the task and the camelCase key, before writing anything', async () => {
    const { ledger, options } = setup();
    const plan = { tasks: [{ id: 'api', instructions: 'x', acceptance_criteria: [{ description: 'd', check: 'true' }] }] };
    const error = await rejection(() => runPlan(plan as unknown as Plan, options));
    expect(isBatonError(error, 'INPUT_INVALID')).toBe(true);
    expect(error.message).toBe('runPlan plan: tasks[0] (id "api"): unknown key "acceptance_criteria" (did you mean "acceptanceCriteria"?)');
    expect(error.details).toMatchObject({ field: 'tasks[0] (id "api").acceptance_criteria', suggestion: 'acceptanceCriteria' });
    expect(await ledger.listTasks({})).toMatchObject({ items: [] });
  });

  it('rejects an unknown dependency and a missing instruction by task', async () => {
    const { options } = setup();
    const missing = await rejection(() => runPlan({ tasks: [{ id: 'a' }] } as unknown as Plan, options));
    expect(missing.message).toMatch(/^runPlan plan: tasks\[0\] \(id "a"\)\.instructions: /);
    const dep = await rejection(() => runPlan({ tasks: [{ id: 'a', instructions: 'x', dependsOn: ['zz'] }] } as unknown as Plan, options));
    expect(dep.message).toContain('tasks[0] (id "a").depends_on[0]: unknown task "zz"');
  });

  it('names a misspelled option with the spelling expected, and a value of the wrong type with what was found', async () => {
    const { options } = setup();
    const plan = { tasks: [{ id: 'a', instructions: 'x' }] } as unknown as Plan;
    const { workspaceDir, ...rest } = options;
    const misspelled = await rejection(() =>
      runPlan(plan, { ...rest, workspaceDirectory: workspaceDir, timeoutMs: 5 } as unknown as RunPlanOptions),
    );
    expect(isBatonError(misspelled, 'CONFIG_INVALID')).toBe(true);
    expect(misspelled.message).toContain('runPlan options is invalid:');
    expect(misspelled.message).toContain('unknown key "workspaceDirectory" (did you mean "workspaceDir"?)');
    expect(misspelled.message).toContain('unknown key "timeoutMs" (expected one of: helperProviders,');
    const wrong = await rejection(() =>
      runPlan(plan, { ...options, ledger: 'sqlite:x.db', concurrency: '2' } as unknown as RunPlanOptions),
    );
    expect(wrong.message).toContain('ledger: expected a Ledger (from openLedger or new MemoryLedger()); got "sqlite:x.db"');
    expect(wrong.message).toMatch(/concurrency: .*number.*; got "2"/);
  });

  it('runs a plan from code that leaves out the fields a plan file may leave out', async () => {
    const { options } = setup();
    const report = await runPlan({ tasks: [{ id: 'a', instructions: 'Write draft.txt.' }] } as unknown as Plan, options);
    expect(report.tasks.map((t) => [t.id, t.status])).toEqual([['a', 'completed']]);
  });
});

describe('buildRunReport options', () => {
  it('names an unknown option', async () => {
    await expect(buildRunReport(new MemoryLedger(), [], { runOwner: 'me' } as never)).rejects.toThrow(
      'buildRunReport options: unknown key "runOwner" (did you mean "owner"?)',
    );
  });
});
