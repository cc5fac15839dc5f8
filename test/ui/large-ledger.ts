import {
  type Dispatch,
  type Ledger,
  type LedgerLine,
  materializeDispatch,
  materializeTask,
  TASK_STATUSES,
} from '../../src/ledger/index.js';

const BATCH = 5_000;
const PROVIDERS = ['gemini', 'copilot', 'cursor', 'codex', 'claude'];
const OUTCOMES: Array<Dispatch['outcome']> = ['ok', 'ok', 'ok', 'validation_failed', 'rate_limited', 'timeout', 'agent_error'];

/**
 * Bulk-loads `tasks` tasks (each after the one before, statuses spread) and `dispatches`
 * dispatches spread over them, in importLines batches. Used by the UI's scale test and bench/ui.ts.
 */
export async function fillLargeLedger(ledger: Ledger, counts: { tasks: number; dispatches: number }, now = Date.now()): Promise<void> {
  let lines: LedgerLine[] = [];
  const flush = async () => {
    if (lines.length) await ledger.importLines(lines);
    lines = [];
  };
  for (let i = 0; i < counts.tasks; i++) {
    const task = materializeTask(
      {
        id: `task-${String(i).padStart(5, '0')}`,
        title: `Generated task number ${i}`,
        instructions: `Do step ${i}.`,
        status: TASK_STATUSES[i % 4],
        priority: i % 7,
        dependsOn: i > 0 && i % 3 === 0 ? [`task-${String(i - 1).padStart(5, '0')}`] : [],
        acceptanceCriteria: [{ description: 'it works', check: 'true' }],
      },
      now - (counts.tasks - i) * 1000,
    );
    lines.push({ kind: 'task', record: task });
    if (lines.length >= BATCH) await flush();
  }
  for (let i = 0; i < counts.dispatches; i++) {
    const taskIndex = i % counts.tasks;
    const outcome = OUTCOMES[i % OUTCOMES.length];
    const dispatch = materializeDispatch(
      {
        id: `d-${i}`,
        taskId: `task-${String(taskIndex).padStart(5, '0')}`,
        attempt: 1 + Math.floor(i / counts.tasks),
        provider: PROVIDERS[i % PROVIDERS.length] as string,
        status: outcome === 'ok' ? 'completed' : 'failed',
        outcome,
        filesUpdated: ['src/index.ts'],
        validationErrors: outcome === 'validation_failed' ? ['it works - check failed: true (exit 1)'] : [],
        injectedContext:
          i >= counts.tasks ? '--- RETRY CONTEXT ---\nAttempt #2 - Previous validation failures:\n--- END CONTEXT ---\n' : undefined,
        contextType: i >= counts.tasks ? 'retry' : undefined,
        startedAt: now - (counts.dispatches - i) * 100,
        durationMs: 1000 + (i % 50) * 100,
      },
      i + 1,
      now,
    );
    lines.push({ kind: 'dispatch', record: dispatch });
    if (lines.length >= BATCH) await flush();
  }
  await flush();
}
