/**
 * `baton run`'s task prompt reads the workspace's agent CLI sessions as the session-start hook,
 * refresh and status do: a Codex session found only in Codex's own store (its hooks never ran) is
 * imported before the first prompt, and the scripted agent the run starts is told its failed command
 * with the telling line. A session that was one of a run's own tries (its first request is a Baton
 * task prompt) is not listed.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBaton, tempDir } from '../helpers/cli.js';
import { FAILED_CODEX_ID, writeFailedCodexRollout } from '../sessions/failed-codex-rollout.js';
import { storeEnv } from '../sessions/session-stores-helper.js';

const AGENTS = path.resolve(__dirname, '../supervisor/agents');
const TRY_ID = '019c0000-9999-7222-8333-444455556666';

const PLAN = `
tasks:
  - id: parser
    instructions: Make the parser tests pass.
    acceptance_criteria:
      - description: the draft exists
        check: test -f draft.txt
`;

/** A Codex rollout of an earlier `baton run` try: its first request is a Baton task prompt. */
async function writeEarlierTry(codexHome: string, workspace: string): Promise<void> {
  const at = (s: number) => `2026-02-01T09:00:${String(s).padStart(2, '0')}.000Z`;
  const lines = [
    { timestamp: at(0), type: 'session_meta', payload: { id: TRY_ID, timestamp: at(0), cwd: workspace, cli_version: '0.171.0' } },
    { timestamp: at(1), type: 'event_msg', payload: { type: 'user_message', message: '## Task ID\nold-task\n\n## Task Description\nx' } },
    {
      timestamp: at(2),
      type: 'response_item',
      payload: { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'make never-shown' }), call_id: 'c1' },
    },
    {
      timestamp: at(3),
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: 'c1', output: 'Exit code: 2\nOutput:\nmake: *** no rule' },
    },
  ];
  const dir = path.join(codexHome, 'sessions', '2026', '02', '01');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `rollout-2026-02-01T09-00-00-${TRY_ID}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

describe("baton run's task prompt reads the workspace's agent sessions", () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir: root, cleanup } = await tempDir('baton-run-sessions-'));
  });
  afterAll(() => cleanup());

  it("imports a Codex session first and names its failed command in the agent's prompt, not the run's own tries", async () => {
    const workspace = path.join(root, 'ws');
    const home = path.join(root, 'home');
    await mkdir(workspace, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: workspace });
    const env = storeEnv(home);
    const log = path.join(root, 'agent.log');
    await writeFailedCodexRollout(env.CODEX_HOME as string, workspace);
    await writeEarlierTry(env.CODEX_HOME as string, workspace);
    await writeFile(path.join(root, 'plan.yaml'), PLAN);
    const fixer = { type: 'command', command: [process.execPath, path.join(AGENTS, 'fixer.mjs')], env: { AGENT_LOG: log } };
    await writeFile(path.join(root, 'baton.config.json'), JSON.stringify({ providers: { fixer }, priority: ['fixer'] }));

    const run = await runBaton(['run', path.join(root, 'plan.yaml'), '--config', path.join(root, 'baton.config.json'), '--json'], {
      cwd: workspace,
      env,
    });
    expect(run.stderr + run.stdout).toContain('"completed"');
    expect(run.code).toBe(0);

    const [entry] = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { prompt: string });
    const prompt = entry?.prompt ?? '';
    const context = JSON.parse(prompt.split('## READ-ONLY CONTEXT — DO NOT MODIFY\n')[1]?.split('\n\n## Rules')[0] ?? '{}') as {
      recent_sessions?: Array<{ session_id: string; facts?: { failed_command?: { command: string; exit_code?: number; error?: string } } }>;
    };
    expect(context.recent_sessions?.map((s) => s.session_id)).toEqual([`codex-${FAILED_CODEX_ID}`]);
    expect(context.recent_sessions?.[0]?.facts?.failed_command).toMatchObject({ command: 'npm test', exit_code: 1 });
    expect(context.recent_sessions?.[0]?.facts?.failed_command?.error).toContain('FAIL test/parser.test.ts');
    expect(prompt).not.toContain('never-shown');
  });
});
