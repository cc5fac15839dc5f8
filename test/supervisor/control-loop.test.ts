import { existsSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../src/ledger/index.js';
import { silentLogger } from '../../src/observability/index.js';
import { CircuitBreaker, parsePlan, runPlan, workspaceOps } from '../../src/supervisor/index.js';
import { agent, makeWorkspace, readAgentLog } from './helpers.js';

function setup() {
  const dir = makeWorkspace();
  const log = path.join(dir, '..', `${path.basename(dir)}-agents.jsonl`);
  return { dir, log, ledger: new MemoryLedger(), env: { AGENT_LOG: log } };
}

const plan = (yaml: string) => parsePlan(yaml, 'plan.yaml');

describe('control loop over real agent processes', () => {
  it('falls back to the next provider with a PROVIDER SWITCH CONTEXT built from the failed try', async () => {
    const { dir, log, ledger, env } = setup();
    const report = await runPlan(
      plan(`
tasks:
  - id: draft
    instructions: Write a draft.
    acceptance_criteria:
      - description: draft.txt exists
        check: test -f draft.txt
`),
      {
        ledger,
        providers: [agent('limited', 'rate-limited.mjs', env), agent('fixer', 'fixer.mjs', env)],
        workspace: workspaceOps(dir),
        workspaceDir: dir,
        logger: silentLogger,
      },
    );
    const [task] = report.tasks;
    expect(task?.status).toBe('completed');
    expect(task?.attempts.map((a) => [a.attempt, a.provider, a.outcome])).toEqual([
      [1, 'limited', 'rate_limited'],
      [1, 'fixer', 'ok'],
    ]);
    expect(task?.attempts[1]?.injected_context).toMatch(
      /^--- PROVIDER SWITCH CONTEXT ---\nPrevious provider \(limited\) failed: rate_limited\n/,
    );
    const prompts = readAgentLog(log);
    expect(prompts[0]?.prompt.startsWith('## Task ID\ndraft')).toBe(true);
    expect(prompts[1]?.prompt.startsWith('--- PROVIDER SWITCH CONTEXT ---')).toBe(true);
    expect(prompts[1]?.samePromptFile).toBe(true);
    expect(task?.attempts[1]?.files_created).toEqual(['draft.txt']);
    const breaker = await ledger.getBreaker('limited');
    expect(breaker?.state).toBe('open');
  });

  it('with report: false, returns each task’s status as the run saw it without reading the ledger back', async () => {
    const { dir, ledger, env } = setup();
    let readsAfterRun = 0;
    let finished = false;
    const counting = new Proxy(ledger, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (finished && (key === 'getTasks' || key === 'listDispatches')) readsAfterRun += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const twoTasks = plan(`
tasks:
  - id: draft
    instructions: Write a draft.
    acceptance_criteria:
      - description: draft.txt exists
        check: test -f draft.txt
  - id: never
    instructions: Cannot pass.
    retry_policy: { max_retries: 1 }
    acceptance_criteria:
      - description: impossible
        check: "false"
`);
    const report = await runPlan(twoTasks, {
      ledger: counting,
      providers: [agent('fixer', 'fixer.mjs', env)],
      workspace: workspaceOps(dir),
      workspaceDir: dir,
      logger: silentLogger,
      onEvent: (event) => {
        if (event.type === 'task-end' && event.taskId === 'never') finished = true;
      },
      report: false,
    });
    expect(report).toEqual({
      tasks: [
        { id: 'draft', status: 'completed', attempts: [] },
        { id: 'never', status: 'blocked', attempts: [] },
      ],
    });
    expect(readsAfterRun).toBe(0);
    expect((await ledger.getTask('never'))?.status).toBe('blocked');
  });

  it('retries with a RETRY CONTEXT the agent acts on, then completes', async () => {
    const { dir, log, ledger, env } = setup();
    const events: { event?: string; type?: string; attempt?: number }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => events.push(JSON.parse(line)) });
    const report = await runPlan(
      plan(`
tasks:
  - id: docs
    instructions: Write the docs.
    acceptance_criteria:
      - description: the guide exists
        check: test -f docs/guide.md
`),
      { ledger, providers: [agent('fixer', 'fixer.mjs', env)], workspace: workspaceOps(dir), workspaceDir: dir, logger },
    );
    const [task] = report.tasks;
    expect(task?.status).toBe('completed');
    expect(task?.attempts.map((a) => a.outcome)).toEqual(['validation_failed', 'ok']);
    // The original prompt and the contextual one are separate log events.
    expect(events.filter((e) => e.event).map((e) => `${e.event}#${e.attempt}`)).toEqual([
      'prompt.original#1',
      'prompt.original#2',
      'prompt.contextual#2',
    ]);
    expect(task?.attempts[0]?.validation_errors[0]).toContain('check failed: test -f docs/guide.md');
    const retry = task?.attempts[1]?.injected_context ?? '';
    expect(retry).toMatch(
      /^--- RETRY CONTEXT ---\nAttempt #2 - Previous validation failures:\n- the guide exists - check failed: test -f docs\/guide.md/,
    );
    expect(retry).toContain('Already created: draft.txt');
    expect(readAgentLog(log)[1]?.prompt.startsWith(retry)).toBe(true);
    expect(existsSync(path.join(dir, 'docs/guide.md'))).toBe(true);
    expect((await ledger.getTask('docs'))?.resultSummary).toBe('Wrote the draft.');
  });

  it('sends unchecked criteria to the helper with a HELPER AGENT CONTEXT and stores the check it writes', async () => {
    const { dir, log, ledger, env } = setup();
    const report = await runPlan(
      plan(`
tasks:
  - id: notes
    instructions: Write notes.
    retry_policy: { max_retries: 2 }
    acceptance_criteria:
      - description: the summary exists
        check: test -f summary.md
      - description: notes.md exists
`),
      {
        ledger,
        providers: [agent('fixer', 'fixer.mjs', env)],
        helperProviders: [agent('verifier', 'helper.mjs', env)],
        workspace: workspaceOps(dir),
        workspaceDir: dir,
        logger: silentLogger,
      },
    );
    const [task] = report.tasks;
    const helperTries = task?.attempts.filter((a) => a.provider === 'verifier') ?? [];
    expect(helperTries.length).toBeGreaterThanOrEqual(1);
    expect(helperTries[0]?.injected_context).toMatch(
      /^--- HELPER AGENT CONTEXT ---\nAttempt #1 \(0 previous retries\) - validation failed\nAttempt 1 touched: draft.txt - error: "the summary exists - check failed: test -f summary.md/,
    );
    const helperPrompt = readAgentLog(log).find((p) => p.agent === 'helper')?.prompt ?? '';
    expect(helperPrompt).toContain('## Enhanced Verification Task');
    expect(helperPrompt).toContain('1. notes.md exists');
    const stored = await ledger.getTask('notes');
    expect(stored?.acceptanceCriteria[1]).toEqual({ description: 'notes.md exists', check: 'test -f notes.md' });
    // The helper's check failed too, so the retry context names both files and the agent fixes both.
    expect(task?.attempts[0]?.validation_errors).toEqual([
      expect.stringContaining('check failed: test -f summary.md'),
      expect.stringContaining('helper check failed: test -f notes.md'),
    ]);
    expect(task?.status).toBe('completed');
    expect(existsSync(path.join(dir, 'notes.md'))).toBe(true);
  });

  it('injects nothing when the task turns pre-context off, overriding the global switch', async () => {
    const { dir, log, ledger, env } = setup();
    const report = await runPlan(
      plan(`
tasks:
  - id: quiet
    instructions: Write the docs.
    retry_policy: { max_retries: 2 }
    options: { enable_pre_context: false }
    acceptance_criteria:
      - description: the guide exists
        check: test -f guide.md
`),
      { ledger, providers: [agent('fixer', 'fixer.mjs', env)], workspace: workspaceOps(dir), workspaceDir: dir, logger: silentLogger },
    );
    expect(report.tasks[0]?.status).toBe('blocked');
    expect(report.tasks[0]?.attempts.map((a) => a.injected_context)).toEqual(['', '']);
    expect(readAgentLog(log).every((p) => p.prompt.startsWith('## Task ID'))).toBe(true);
    expect((await ledger.getTask('quiet'))?.blockReason).toContain('Failed after 2 attempts: the guide exists - check failed');
  });

  it('spends no attempt when every breaker is open: the task is blocked saying no agent could run', async () => {
    const { dir, ledger, env } = setup();
    const breaker = new CircuitBreaker({ ledger, owner: 'other-process' });
    await breaker.record('a', { kind: 'rate_limited', resetAt: Date.now() + 3_600_000 });
    await breaker.record('b', { kind: 'auth_failed' });
    const report = await runPlan(
      plan(`
tasks:
  - id: t1
    instructions: Anything.
    retry_policy: { max_retries: 2 }
  - id: t2
    instructions: Depends on t1.
    depends_on: [t1]
`),
      {
        ledger,
        providers: [agent('a', 'fixer.mjs', env), agent('b', 'fixer.mjs', env)],
        workspace: workspaceOps(dir),
        workspaceDir: dir,
        logger: silentLogger,
      },
    );
    expect(report.tasks.map((t) => t.status)).toEqual(['blocked', 'blocked']);
    // No agent ran, so no attempt was recorded or spent.
    expect(report.tasks[0]?.attempts).toEqual([]);
    // Each provider is named with its breaker's reopening time and reason.
    expect((await ledger.getTask('t1'))?.blockReason).toMatch(
      /^No agent could run attempt 1 \(0 attempts ran; --max-wait 0 ms\): All providers circuit-broken: a: breaker open until \d{4}-\d\d-\d\dT[\d:.]+Z \(rate_limited\); b: breaker open until \d{4}-[\d:T.-]+Z \(auth_failed\)$/,
    );
    expect((await ledger.getTask('t2'))?.blockReason).toBe('Dependency "t1" is blocked');
  });

  it('counts only attempts whose agents ran: after a switch that opened both breakers, the next attempt is not spent as "none"', async () => {
    // Issue 26: attempts 2-3 were spent in milliseconds as provider "none" while both breakers
    // were open, and the task read "blocked after 3 attempts" though one agent ran.
    const { dir, ledger, env } = setup();
    const report = await runPlan(plan('tasks: [{ id: t1, instructions: Anything., retry_policy: { max_retries: 3 } }]'), {
      ledger,
      providers: [agent('limited', 'rate-limited.mjs', env), agent('also', 'rate-limited.mjs', env)],
      workspace: workspaceOps(dir),
      workspaceDir: dir,
      logger: silentLogger,
    });
    const [task] = report.tasks;
    expect(task?.status).toBe('blocked');
    expect(task?.attempts.map((a) => `${a.attempt}:${a.provider}:${a.outcome}`)).toEqual(['1:limited:rate_limited', '1:also:rate_limited']);
    expect((await ledger.getTask('t1'))?.blockReason).toMatch(
      /^No agent could run attempt 2 \(1 attempt ran; --max-wait 0 ms\): All providers circuit-broken: limited: breaker open until [^(]+\(rate limit exceeded\); also: breaker open until [^(]+\(rate limit exceeded\)$/,
    );
  });

  it('waits for the reset of a breaker it just opened when that is within maxWaitMs', async () => {
    const { dir, ledger, env } = setup();
    const marker = path.join(dir, '..', `${path.basename(dir)}.once`);
    const report = await runPlan(plan('tasks: [{ id: t1, instructions: Anything., retry_policy: { max_retries: 1 } }]'), {
      ledger,
      providers: [agent('once', 'limited-once.mjs', { ...env, ONCE_MARKER: marker, RESET_IN_MS: '300' })],
      workspace: workspaceOps(dir),
      workspaceDir: dir,
      logger: silentLogger,
      maxWaitMs: 10_000,
    });
    expect(report.tasks[0]?.status).toBe('completed');
    expect(report.tasks[0]?.attempts.map((a) => `${a.attempt}:${a.outcome}`)).toEqual(['1:rate_limited', '1:ok']);
    expect((await ledger.getBreaker('once'))?.state).toBe('closed');
  });

  it('says what the provider did when it tripped its own breaker, not "All providers circuit-broken"', async () => {
    const { dir, ledger, env } = setup();
    const report = await runPlan(plan('tasks: [{ id: t1, instructions: Anything., retry_policy: { max_retries: 1 } }]'), {
      ledger,
      providers: [agent('limited', 'rate-limited.mjs', env)],
      workspace: workspaceOps(dir),
      workspaceDir: dir,
      logger: silentLogger,
    });
    expect(report.tasks[0]?.attempts.map((a) => `${a.provider}:${a.outcome}`)).toEqual(['limited:rate_limited']);
    expect((await ledger.getTask('t1'))?.blockReason).toMatch(
      /^Failed after 1 attempt: limited: rate_limited; last: rate limit exceeded \(breaker open until \d{4}-[\d:T.-]+Z\)$/,
    );
  });

  it('waits for the earliest reset when it is within maxWaitMs, then runs', async () => {
    const { dir, ledger, env } = setup();
    // A fixed clock that the injected sleep advances: the wait is decided, not timed.
    let clock = Date.now();
    const now = () => clock;
    const breaker = new CircuitBreaker({ ledger, owner: 'other-process', now });
    const resetAt = clock + 60_000;
    await breaker.record('a', { kind: 'rate_limited', resetAt });
    const waits: number[] = [];
    const report = await runPlan(plan('tasks: [{ id: t1, instructions: Anything. }]'), {
      ledger,
      providers: [agent('a', 'fixer.mjs', env)],
      workspace: workspaceOps(dir),
      workspaceDir: dir,
      logger: silentLogger,
      maxWaitMs: 120_000,
      now,
      sleep: async (ms) => {
        clock += ms;
      },
      onEvent: (e) => {
        if (e.type === 'waiting') waits.push(e.untilMs);
      },
    });
    expect(waits).toEqual([resetAt]);
    expect(report.tasks[0]?.status).toBe('completed');
    expect((await ledger.getBreaker('a'))?.state).toBe('closed');
  });
});
