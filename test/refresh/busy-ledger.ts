import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Ledger } from '../../src/ledger/index.js';
import { makeRepo, writeFiles } from './helpers.js';

/** The error line buried in every long attempt result (the part a cut must keep). */
export const BURIED_ERROR = 'AssertionError: expected 200, got 500 in api.test.ts';

/**
 * The busy ledger of issue 11: task `busy` with 25 failed attempts whose results are long logs,
 * 15 open debt items, 67 modified files in a real git repository, a task README, tracking logs and
 * artifacts; plus `extra` tasks `t1..tN` (for many-task refreshes). Fills the given ledger, or the
 * one the function opens in the new repository.
 */
export async function seedBusyWorkspace(
  into: Ledger | ((dir: string) => Promise<Ledger>),
  extra = 0,
): Promise<ReturnType<typeof makeRepo>> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 67; i += 1) files[`src/mod${i}/file${i}.ts`] = `export const v${i} = ${i};\n`;
  const repo = makeRepo(files);
  for (let i = 0; i < 67; i += 1)
    writeFileSync(path.join(repo.dir, `src/mod${i}/file${i}.ts`), `export const v${i} = ${i + 1};\n// changed\n`);
  writeFiles(repo.dir, {
    '.agent/tasks/busy_api/README.md':
      '# Task busy: fix the API\n\nThe /orders endpoint answers 500 under load. Keep the public contract.\n',
    '.agent/tasks/busy_api/tracking/001.md': '- reproduced the 500\n- suspect the pool size\n',
    '.agent/tasks/busy_api/artifacts/plan.md': '1. reproduce\n2. fix the pool\n3. load test\n',
  });
  const ledger = typeof into === 'function' ? await into(repo.dir) : into;
  await ledger.createTask({
    id: 'busy',
    title: 'Fix the /orders API under load',
    instructions: 'Find why /orders answers 500 under load and fix it.',
    status: 'in_progress',
    acceptanceCriteria: [{ description: 'load test passes', check: 'npm run load' }],
  });
  for (let i = 0; i < 25; i += 1) {
    const log = Array.from({ length: 60 }, (_, l) => `step ${l}: compiling module ${l} of attempt ${i} ... ok`);
    log.splice(40, 0, BURIED_ERROR);
    const dispatch = await ledger.appendDispatch({ taskId: 'busy', attempt: i + 1, provider: i % 2 ? 'claude' : 'gemini' });
    await ledger.updateDispatch(dispatch.id, {
      status: 'failed',
      outcome: 'validation_failed',
      result: log.join('\n'),
      validationErrors: ['load test passes: 37 requests failed'],
      finishedAt: Date.now(),
    });
  }
  for (let k = 0; k < 15; k += 1) {
    await ledger.createRecord('debt', {
      status: 'open',
      taskId: k % 3 === 0 ? 'busy' : undefined,
      data: { title: `Known issue ${k}`, impact: 'slows every request '.repeat(12), severity: 'high', description: 'details '.repeat(120) },
    });
  }
  for (let t = 1; t <= extra; t += 1) {
    await ledger.createTask({
      id: `t${t}`,
      title: `Task ${t}: part ${t} of the billing pipeline`,
      instructions: `Implement part ${t}. `.repeat(30),
      status: 'in_progress',
      dependsOn: t > 1 ? [`t${t - 1}`] : [],
    });
  }
  return repo;
}
