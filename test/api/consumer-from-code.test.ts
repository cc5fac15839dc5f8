/**
 * runPlan and refreshContext as a user calls them: Baton installed from the packed tarball, each
 * program compiled by the project's own tsc (`skipLibCheck: false`: the config's fields must fit
 * runPlan's options) and run with `--unhandled-rejections=strict` (a stray rejection fails it).
 * runPlan runs on a real git repository with two command providers, the first rate-limited;
 * refreshContext renders every format and sees a change made a moment before; misuse is an error
 * naming the field, caught by the caller, and the process lives on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPrograms, type ConsumerProject, consumerProject } from '../helpers/consumer-project.js';

const INSTALL_TIMEOUT_MS = 1_200_000;
const PROGRAM_TIMEOUT_MS = 600_000;

/** A temporary git repository with one commit, for the programs. */
const REPO = `
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function makeRepo(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-consumer-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'user@example.com');
  git('config', 'user.name', 'User');
  git('config', 'commit.gpgsign', 'false');
  writeFileSync(path.join(dir, 'README.md'), '# app\\n');
  git('add', '-A');
  git('commit', '-qm', 'initial commit');
  return dir;
}
`;

const RUN_PLAN = `
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCommandProvider, loadConfig, MemoryLedger, parsePlan, runPlan } from 'agent-baton';
import { makeRepo } from './repo.js';

const dir = makeRepo();
const agent = (name: string, source: string) => {
  const file = path.join(dir, '..', \`\${path.basename(dir)}-\${name}.mjs\`);
  writeFileSync(file, source);
  return createCommandProvider(name, { type: 'command', command: [process.execPath, file] });
};
const limited = agent('limited', [
  "console.log('Error: 429 Too Many Requests');",
  "console.log(JSON.stringify({ outcome: 'rate_limited', resetAt: new Date(Date.now() + 60000).toISOString() }));",
  'process.exit(1);',
].join('\\n'));
const writer = agent('writer', "import { writeFileSync } from 'node:fs'; writeFileSync('draft.txt', 'draft'); console.log('wrote draft.txt');");

const plan = parsePlan(
  ['tasks:', '  - id: draft', '    instructions: Write draft.txt.', '    acceptance_criteria:', '      - description: draft.txt exists', '        check: test -f draft.txt'].join('\\n'),
  'plan.yaml',
);
// The config as loadConfig resolves it, its fields passed as they are.
const config = await loadConfig({ cwd: dir });
const report = await runPlan(plan, {
  ledger: new MemoryLedger(),
  providers: [limited, writer],
  workspaceDir: dir,
  preContext: config.preContext,
  breaker: config.breaker,
  recentHistoryWindow: config.recentHistoryWindow,
  agentTimeoutMs: config.timeouts.agentMs,
  checkTimeoutMs: config.timeouts.checkMs,
});
console.log(JSON.stringify(report.tasks.map((t) => ({
  id: t.id,
  status: t.status,
  attempts: t.attempts.map((a) => [a.provider, a.outcome, a.files_created]),
  switchContext: t.attempts[1]?.injected_context?.split('\\n')[0],
}))));
`;

const REFRESH = `
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryLedger, REFRESH_FORMATS, refreshContext } from 'agent-baton';
import { makeRepo } from './repo.js';

const dir = makeRepo();
const ledger = new MemoryLedger();
await ledger.createTask({ id: 'csv', title: 'Add CSV export', status: 'in_progress' });
const out: Record<string, unknown> = {};
for (const format of REFRESH_FORMATS) {
  const result = await refreshContext({ workspace: dir, ledger, format, taskId: 'csv' });
  out[format] = {
    mentionsTask: result.text.includes('Add CSV export'),
    withinBudget: result.metadata.token_estimate <= result.metadata.token_budget,
    prompt: (result.continuation_prompt ?? '').includes('You are resuming work on **Add CSV export**'),
  };
}
writeFileSync(path.join(dir, 'just-now.ts'), 'export {};');
const after = await refreshContext({ workspace: dir, ledger, taskId: 'csv' });
out.changeShows = JSON.stringify(after.context).includes('just-now.ts');
await ledger.updateTask('csv', { status: 'completed' });
const done = await refreshContext({ workspace: dir, ledger, taskId: 'csv', format: 'narrative' });
out.completed = /is completed/.test(done.text) && !/resuming work/.test(done.text);
console.log(JSON.stringify(out));
`;

const MISUSE = `
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCommandProvider, MemoryLedger, refreshContext, runPlan } from 'agent-baton';

const messages: string[] = [];
const caught = async (run: () => Promise<unknown>) => {
  try {
    await run();
    messages.push('no error');
  } catch (error) {
    messages.push((error as Error).message);
  }
};
const dir = mkdtempSync(path.join(tmpdir(), 'baton-misuse-'));
// The compiler is told to let these through: a JavaScript caller has no compiler.
await caught(() => refreshContext({ workspace: dir } as unknown as Parameters<typeof refreshContext>[0]));
const provider = createCommandProvider('agent', { type: 'command', command: ['true'] });
const plan = { tasks: [{ id: 'a', title: 'a', instructions: 'x', intent: '', acceptanceCriteria: [], dependsOn: [], options: {}, priority: 0 }] };
await caught(() => runPlan(plan, { ledger: new MemoryLedger(), providers: [provider], workspaceDir: path.join(dir, 'missing') }));
// A turn later, with --unhandled-rejections=strict: anything left floating would have ended the process.
await new Promise((resolve) => setTimeout(resolve, 100));
console.log(JSON.stringify({ messages, alive: true }));
`;

let project: ConsumerProject;
let programs: BuiltPrograms;

beforeAll(async () => {
  project = await consumerProject();
  programs = await project.build(
    { 'repo.ts': REPO, 'run-plan.ts': RUN_PLAN, 'refresh.ts': REFRESH, 'misuse.ts': MISUSE },
    { timeoutMs: PROGRAM_TIMEOUT_MS },
  );
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await programs?.remove();
});

function output(result: { stdout: string; stderr: string; code: number | undefined; stage: string }): unknown {
  expect(result.stderr, result.stdout).toBe('');
  expect(result).toMatchObject({ stage: 'run', code: 0 });
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '');
}

describe('Baton from code, in a consumer project', { timeout: PROGRAM_TIMEOUT_MS }, () => {
  it('compiles every program against the shipped .d.ts (config fields fit runPlan)', () => {
    expect(programs.compile?.stdout ?? '').toBe('');
    expect(programs.compile?.code).toBe(0);
  });

  it('runs a plan with two command providers: the first rate-limited, the second completes it', async () => {
    const tasks = output(await programs.run('run-plan.ts'));
    expect(tasks).toEqual([
      {
        id: 'draft',
        status: 'completed',
        attempts: [
          ['limited', 'rate_limited', []],
          ['writer', 'ok', ['draft.txt']],
        ],
        switchContext: '--- PROVIDER SWITCH CONTEXT ---',
      },
    ]);
  });

  it('renders refreshContext in every format, shows a change made a moment ago, and words a completed task as done', async () => {
    const out = output(await programs.run('refresh.ts'));
    const each = { mentionsTask: true, withinBudget: true, prompt: true };
    expect(out).toEqual({ minimal: each, standard: each, detailed: each, narrative: each, changeShows: true, completed: true });
  });

  it('reports misuse as errors naming the field, leaving no unhandled rejection', async () => {
    const out = output(await programs.run('misuse.ts'));
    expect(out).toMatchObject({ alive: true });
    const [refresh, run] = (out as { messages: string[] }).messages;
    expect(refresh).toMatch(
      /^refreshContext: ledger must be a Ledger \(await openLedger\(\{ cwd: workspace \}\), or new MemoryLedger\(\)\); got undefined$/,
    );
    expect(run).toMatch(
      /^runPlan: workspaceDir \/.*\/missing does not exist: agents work and checks run in it, so it must be an existing folder$/,
    );
  });
});
