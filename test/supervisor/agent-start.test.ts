/**
 * A task whose agent could not start never completes, even when its checks would pass without
 * the agent: an argument the system refuses (E2BIG, thrown by Node's spawn) and a provider that
 * throws are failed tries naming the cause, and the task ends blocked with it. Real spawns, the
 * memory ledger.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { silentLogger } from '../../src/observability/index.js';
import { createCommandProvider, type Provider } from '../../src/providers/index.js';
import { parsePlan, runPlan, workspaceOps } from '../../src/supervisor/index.js';
import { AGENTS_DIR, makeWorkspace } from './helpers.js';

// The check passes with or without the agent: only the agent's start decides.
const plan = parsePlan(
  `
tasks:
  - id: vacuous
    instructions: Anything.
    acceptance_criteria:
      - description: always true
        check: "true"
    retry_policy: { max_retries: 2 }
`,
  'plan.yaml',
);

async function run(provider: Provider) {
  const dir = makeWorkspace();
  const ledger = new MemoryLedger();
  const report = await runPlan(plan, {
    ledger,
    providers: [provider],
    workspace: workspaceOps(dir),
    workspaceDir: dir,
    logger: silentLogger,
  });
  return { report, reason: (await ledger.getTask('vacuous'))?.blockReason ?? '' };
}

describe('an agent that could not start', () => {
  it('blocks the task, naming E2BIG, when its command line is longer than the system takes', async () => {
    // One argument over Linux's 128 KiB per-argument limit: spawn throws E2BIG.
    const huge = createCommandProvider('huge', {
      type: 'command',
      command: [process.execPath, path.join(AGENTS_DIR, 'fixer.mjs'), 'x'.repeat(300_000)],
    });
    const { report, reason } = await run(huge);
    expect(report.tasks[0]?.status).toBe('blocked');
    expect(report.tasks[0]?.attempts.map((a) => a.outcome)).toEqual(['config_error']);
    expect(reason).toMatch(/huge: could not start ".*": spawn E2BIG: \d+ bytes of arguments and environment, more than the system takes/);
  });

  it('blocks the task, naming the error, when the provider throws instead of running its agent', async () => {
    const throwing: Provider = {
      name: 'broken',
      type: 'custom',
      run: async () => {
        throw new Error('prompt file could not be written: ENOSPC');
      },
    };
    const { report, reason } = await run(throwing);
    expect(report.tasks[0]?.status).toBe('blocked');
    expect(report.tasks[0]?.attempts.map((a) => a.outcome)).toEqual(['config_error']);
    expect(reason).toContain('broken could not run: prompt file could not be written: ENOSPC');
  });
});
