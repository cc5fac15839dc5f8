import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Ledger } from '../../src/ledger/index.js';
import { seedBusyWorkspace } from '../refresh/busy-ledger.js';
import { writeFiles } from '../refresh/helpers.js';

/**
 * The busy workspace of issue 11 (task `busy`, 25 long failed attempts, 15 debt items, 67 modified
 * files, `t1..tN`) made crowded enough that every refresh format fills its cap: long diffs in every
 * modified file, a long README, tracking logs and artifacts, and long instructions. What a client
 * forwards can only break a cap when the result is near it; here it is, in every format. With a
 * ledger given (not opened in the repository), also task `quoted` (seedQuotedTask).
 */
export async function seedCrowdedWorkspace(into: Ledger | ((dir: string) => Promise<Ledger>), extra = 9) {
  const repo = await seedBusyWorkspace(into, extra);
  for (let i = 0; i < 67; i += 1) {
    const lines = Array.from({ length: 40 }, (_, l) => `export const changed${i}_${l} = 'value ${l} of module ${i} after the pool fix';`);
    writeFileSync(path.join(repo.dir, `src/mod${i}/file${i}.ts`), `${lines.join('\n')}\n`);
  }
  const paragraph = (topic: string, n: number) =>
    Array.from(
      { length: n },
      (_, k) => `- ${topic} note ${k}: the pool of database connections is exhausted under load at step ${k}.`,
    ).join('\n');
  writeFiles(repo.dir, {
    '.agent/tasks/busy_api/README.md': `# Task busy: fix the API\n\nThe /orders endpoint answers 500 under load. Keep the public contract.\n\n${paragraph('readme', 150)}\n`,
    '.agent/tasks/busy_api/tracking/002.md': `${paragraph('tracking', 120)}\n`,
    '.agent/tasks/busy_api/tracking/003.md': `${paragraph('more tracking', 120)}\n`,
    '.agent/tasks/busy_api/artifacts/findings.md': `${paragraph('finding', 120)}\n`,
    '.agent/tasks/busy_api/artifacts/load-test.md': `${paragraph('load test', 120)}\n`,
  });
  const ledger = typeof into === 'function' ? undefined : into;
  if (ledger) await seedQuotedTask(ledger);
  return repo;
}

/**
 * Task `quoted`: instructions, attempt results and validation errors full of quotes and line
 * breaks, which cost about 40 % more tokens once a client escapes them inside a JSON string (as
 * Claude Code and Codex CLI do with a resource they read).
 */
export async function seedQuotedTask(ledger: Ledger): Promise<void> {
  const instructions = Array.from({ length: 200 }, (_, i) => `- set "key${i}" to "v${i}"`).join('\n');
  await ledger.createTask({ id: 'quoted', title: 'Quotes "everywhere"', instructions, status: 'in_progress' });
  for (let i = 0; i < 10; i += 1) {
    const dispatch = await ledger.appendDispatch({ taskId: 'quoted', attempt: i + 1, provider: 'claude' });
    await ledger.updateDispatch(dispatch.id, {
      status: 'failed',
      result: Array.from({ length: 80 }, (_, l) => `"a${l}": "b"`).join('\n'),
      validationErrors: Array.from({ length: 10 }, (_, k) => `expected "x${k}", got "y${k}"`),
    });
  }
}
