/**
 * `baton run` imports the workspace's agent CLI sessions before each try's prompt, not only at its
 * start: a Codex session that ran while the run was going (during try 1, found only in Codex's own
 * store) is in try 2's prompt with its failed command.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBaton, tempDir } from '../helpers/cli.js';
import { storeEnv } from '../sessions/session-stores-helper.js';

const AGENT = path.resolve(__dirname, 'agents/codex-meanwhile.mjs');
const MEANWHILE_ID = '019c0000-7777-7222-8333-444455556666';

const PLAN = `
tasks:
  - id: finish
    instructions: Finish the work.
    retry_policy:
      max_retries: 2
    acceptance_criteria:
      - description: the work is done
        check: test -f done.txt
`;

interface SessionEntry {
  session_id: string;
  facts?: { failed_command?: { command: string; exit_code?: number; error?: string } };
}

function recentSessions(prompt: string): SessionEntry[] {
  const context = prompt.split('## READ-ONLY CONTEXT — DO NOT MODIFY\n')[1]?.split('\n\n## Rules')[0] ?? '{}';
  return (JSON.parse(context) as { recent_sessions?: SessionEntry[] }).recent_sessions ?? [];
}

describe("baton run's tries see the sessions other CLIs ran meanwhile", () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir: root, cleanup } = await tempDir('baton-run-meanwhile-'));
  });
  afterAll(() => cleanup());

  it("imports before each try's prompt: try 2 names the Codex session that failed during try 1", async () => {
    const workspace = path.join(root, 'ws');
    await mkdir(workspace, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: workspace });
    const env = storeEnv(path.join(root, 'home'));
    const log = path.join(root, 'agent.log');
    await writeFile(path.join(root, 'plan.yaml'), PLAN);
    // The agent plays the other CLI too: it writes Codex's rollout where `baton run` reads Codex's store.
    const agent = { type: 'command', command: [process.execPath, AGENT], env: { AGENT_LOG: log, CODEX_HOME: env.CODEX_HOME } };
    await writeFile(path.join(root, 'baton.config.json'), JSON.stringify({ providers: { agent }, priority: ['agent'] }));

    const run = await runBaton(['run', path.join(root, 'plan.yaml'), '--config', path.join(root, 'baton.config.json'), '--json'], {
      cwd: workspace,
      env,
    });
    expect(run.stderr + run.stdout).toContain('"completed"');
    expect(run.code).toBe(0);

    const prompts = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { attempt: number; prompt: string });
    expect(prompts.map((p) => p.attempt)).toEqual([1, 2]);
    expect(recentSessions(prompts[0]?.prompt ?? '')).toEqual([]);
    const second = recentSessions(prompts[1]?.prompt ?? '');
    expect(second.map((s) => s.session_id)).toEqual([`codex-${MEANWHILE_ID}`]);
    expect(second[0]?.facts?.failed_command).toMatchObject({ command: 'npm test', exit_code: 1 });
  });
});
