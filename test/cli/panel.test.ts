import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.js';
import { runServeCommand } from '../../src/cli/commands/serve/action.js';
import type { Dispatch } from '../../src/ledger/index.js';
import type { PanelResult } from '../../src/panel/index.js';
import { runBaton, tempDir } from '../helpers/cli.js';
import { type FakeLlm, type Reply, startFakeLlm, systemOf } from '../panel/fake-llm-server.js';
import { agentOf, writePanel } from '../panel/panel-fixture.js';

let llm: FakeLlm;
let dir: string;
let cleanup: () => Promise<void>;
let failing: Set<string>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  failing = new Set();
  llm = await startFakeLlm((request): Reply => {
    const who = agentOf(systemOf(request)) ?? 'unknown';
    return failing.has(who) ? { status: 500 } : { text: `${who} says: keep practising.` };
  });
});
afterEach(async () => {
  await llm.close();
  await cleanup();
});

describe('baton panel', () => {
  it('prints {session, answers} with --json, later agents receiving earlier answers', async () => {
    const file = await writePanel(llm.baseURL, { agents: ['technique', 'science'] });
    const run = await runBaton(['panel', '--config', file, '--ledger', 'memory', '--json', 'How do I volley?'], { cwd: dir });
    expect(run.code).toBe(0);
    // --json is snake_case: PanelResult's answers carry context_mode.
    const result = run.json<{ session: string; answers: Array<PanelResult['answers'][number] & { context_mode: string }> }>();
    expect(result.session).toMatch(/^pn/);
    expect(result.answers.map((a) => [a.agent, a.ok, a.text, a.context_mode])).toEqual([
      ['technique', true, 'technique says: keep practising.', 'none'],
      ['science', true, 'science says: keep practising.', 'full'],
    ]);
    expect(result.answers[1]?.tokens.output).toBeGreaterThan(0);
  });

  it('prints each answer as it completes when stdout is not a terminal', async () => {
    const file = await writePanel(llm.baseURL, { agents: ['technique', 'science'] });
    const run = await runBaton(['panel', '--config', file, '--ledger', 'memory', 'How', 'do', 'I', 'volley?'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/== technique \(openai-compatible:qwen-plus\) ==\ntechnique says: keep practising\.\n/);
    expect(run.stdout).toMatch(/== science \(openai-compatible:qwen-plus, context: full from technique\) ==\nscience says/);
    expect(llm.requests.at(-1)?.messages.at(-1)?.content).toBe('How do I volley?');
    expect(llm.requests.every((r) => !r.stream)).toBe(true);
  });

  it('streams answers on a terminal', async () => {
    const file = await writePanel(llm.baseURL, { agents: ['technique'] });
    let stdout = '';
    const code = await runCli(['node', 'baton', 'panel', '--config', file, '--ledger', 'memory', 'Q?'], {
      stdout: (s) => {
        stdout += s;
      },
      stderr: () => {},
      cwd: dir,
      env: process.env,
      isTTY: true,
    });
    expect(code).toBe(0);
    expect(llm.requests[0]?.stream).toBe(true);
    expect(stdout).toContain('technique says: keep practising.');
  });

  it('records the exchange in the default ledger, where baton status sees it', async () => {
    const file = await writePanel(llm.baseURL, { agents: ['technique', 'science'] });
    const run = await runBaton(['panel', '--config', file, '--json', 'Q?'], { cwd: dir });
    expect(run.code).toBe(0);
    const { session } = run.json<PanelResult>();
    const status = await runBaton(['status', '--json'], { cwd: dir });
    const recent = status.json<{ recent_dispatches: Array<Dispatch & { task_id: string }> }>().recent_dispatches;
    expect(recent.map((d) => [d.task_id, d.provider, d.status])).toEqual([
      [`panel:${session}`, 'science', 'completed'],
      [`panel:${session}`, 'technique', 'completed'],
    ]);
  });

  it('exits 1 when every agent failed, and a failed agent is reported, not passed on', async () => {
    failing.add('technique');
    const file = await writePanel(llm.baseURL, { agents: ['technique'] });
    const run = await runBaton(['panel', '--config', file, '--ledger', 'memory', '--json', 'Q?'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.json<PanelResult>().answers[0]).toMatchObject({ ok: false, outcome: 'overloaded' });
  });

  it('exits 2 with a clear message for bad input', async () => {
    const file = await writePanel(llm.baseURL, { agents: ['technique'] });
    const noConfig = await runBaton(['panel', 'Q?'], { cwd: dir });
    expect(noConfig.code).toBe(2);
    expect(noConfig.stderr).toMatch(/--config panel\.json/);

    const empty = await runBaton(['panel', '--config', file, '--ledger', 'memory', '  '], { cwd: dir });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/question is empty/);

    await writeFile(path.join(path.dirname(file), 'prompts', 'technique.md'), 'You are the technique coach.\n');
    const unversioned = await runBaton(['panel', '--config', file, '--ledger', 'memory', '--json', 'Q?'], { cwd: dir });
    expect(unversioned.code).toBe(2);
    const error = unversioned.json<{ error: { code: string; message: string; file: string } }>().error;
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.file).toBe(path.join(path.dirname(file), 'prompts', 'technique.md'));
    expect(llm.requests).toHaveLength(0);
  });
});

describe('baton panel with a Baton provider agent', () => {
  it('runs a "baton" agent through the provider declared in --providers-config', async () => {
    const file = await writePanel(llm.baseURL, { agents: ['technique', 'science'] });
    const panel = JSON.parse(await readFile(file, 'utf8'));
    panel.agents[1].model = { provider: 'baton', name: 'echo' };
    await writeFile(file, JSON.stringify(panel));
    const script =
      'let p="";process.stdin.on("data",d=>p+=d);process.stdin.on("end",()=>console.log(p.includes("technique says") ? "saw technique" : "saw nothing"))';
    const batonConfig = path.join(dir, 'baton.config.json');
    await writeFile(batonConfig, JSON.stringify({ providers: { echo: { type: 'command', command: [process.execPath, '-e', script] } } }));

    const run = await runBaton(['panel', '--config', file, '--providers-config', batonConfig, '--ledger', 'memory', '--json', 'Q?'], {
      cwd: dir,
    });
    expect(run.code).toBe(0);
    expect(run.json<PanelResult>().answers[1]).toMatchObject({ agent: 'science', ok: true, text: 'saw technique', model: 'baton:echo' });
  });
});

describe('baton serve', () => {
  it('serves POST /panel on 127.0.0.1 until stopped', async () => {
    const file = await writePanel(llm.baseURL, { agents: ['technique'] });
    let stdout = '';
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const io = {
      stdout: (s: string) => {
        stdout += s;
      },
      stderr: () => {},
      cwd: dir,
      env: process.env,
      isTTY: false,
    };
    const serving = runServeCommand(io, { config: file, ledger: 'memory', port: '0', json: true }, stopped);
    await expect.poll(() => stdout).toContain('"url"');
    const { url } = JSON.parse(stdout) as { url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${url}/panel`, { method: 'POST', body: JSON.stringify({ question: 'Q?' }) });
    expect(((await response.json()) as PanelResult).answers[0]?.text).toBe('technique says: keep practising.');
    stop();
    expect(await serving).toBe(0);
  });
});
