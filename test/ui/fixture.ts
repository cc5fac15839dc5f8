import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBaton } from '../helpers/cli.js';
import { agentOf, writePanel } from '../panel/panel-fixture.js';
import { startFakeLlm, systemOf } from '../panel/fake-llm-server.js';

const AGENTS = path.resolve(__dirname, '../supervisor/agents');

/**
 * A plan that crosses every seam: `docs` meets a rate-limited provider (provider switch), fails
 * validation (retry), then passes; `notes` depends on it, fails a check and has a criterion without
 * one, so the helper agent writes a check (then a retry passes); `never` can not pass and ends blocked.
 */
export const PLAN = `
tasks:
  - id: docs
    title: Write the guide
    instructions: Write the docs.
    acceptance_criteria:
      - description: the guide exists
        check: test -f guide.md
  - id: notes
    title: Write release notes
    instructions: Write notes.md.
    depends_on: [docs]
    acceptance_criteria:
      - description: the changelog exists
        check: test -f CHANGES.md
      - description: the file notes.md exists
  - id: never
    title: Build a folder nobody makes
    instructions: Make a folder.
    acceptance_criteria:
      - description: the folder exists
        check: test -d never-made
`;

export interface RunLedger {
  /** Root folder: `ws/` is the workspace, `ledger.db` the SQLite ledger (outside the workspace). */
  root: string;
  workspace: string;
  ledgerFile: string;
  spec: string;
  cleanup: () => Promise<void>;
}

/** Fills a fresh SQLite ledger with a real `baton run` of stand-in command agents (child processes). */
export async function runPlanIntoLedger(options: { panel?: boolean } = {}): Promise<RunLedger> {
  const root = await mkdtemp(path.join(tmpdir(), 'baton-ui-'));
  const workspace = path.join(root, 'ws');
  await mkdir(workspace);
  execFileSync('git', ['init', '-q'], { cwd: workspace });
  const ledgerFile = path.join(root, 'ledger.db');
  const spec = `sqlite:${ledgerFile}`;
  await writeFile(path.join(root, 'plan.yaml'), PLAN);
  const agent = (script: string) => ({ type: 'command', command: [process.execPath, path.join(AGENTS, script)] });
  await writeFile(
    path.join(root, 'baton.config.json'),
    JSON.stringify({
      providers: { limited: agent('rate-limited.mjs'), fixer: agent('fixer.mjs'), verifier: agent('helper.mjs') },
      priority: ['limited', 'fixer'],
      helper: 'verifier',
    }),
  );
  const run = await runBaton(
    [
      'run',
      path.join(root, 'plan.yaml'),
      '--config',
      path.join(root, 'baton.config.json'),
      '--ledger',
      spec,
      '--max-retries',
      '2',
      '--json',
    ],
    {
      cwd: workspace,
      env: { RESET_IN_MS: String(10 * 60_000) },
    },
  );
  if (run.code !== 1 || !run.stdout.includes('"blocked"'))
    throw new Error(`baton run did not end as planned (exit ${run.code}): ${run.stderr}${run.stdout}`);
  if (options.panel) await runPanelIntoLedger(spec, workspace);
  return { root, workspace, ledgerFile, spec, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** A real `baton panel` against a local OpenAI-compatible server, recorded in the same ledger. */
async function runPanelIntoLedger(spec: string, cwd: string): Promise<void> {
  const llm = await startFakeLlm((request) => ({ text: `${agentOf(systemOf(request)) ?? 'someone'} says: keep the wrist firm.` }));
  try {
    const file = await writePanel(llm.baseURL, { agents: ['technique', 'science'] });
    const run = await runBaton(['panel', '--config', file, '--ledger', spec, '--json', 'How do I volley?'], { cwd });
    if (run.code !== 0) throw new Error(`baton panel failed: ${run.stderr}${run.stdout}`);
  } finally {
    await llm.close();
  }
}
