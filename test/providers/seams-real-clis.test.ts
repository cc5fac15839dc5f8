import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type AgentCliName, AGENT_CLIS, ensureClients } from '../helpers/agent-clis/index.js';
import type { ModelServer } from '../helpers/model-server/index.js';
import { batonShare, type Report, runSeamsScenario } from './seams-scenario.js';

/** Issue 26's plan through `baton run` with each real agent CLI (the scenario: seams-scenario.ts). */
let found: Partial<Record<AgentCliName, string>> = {};
const made: string[] = [];
beforeAll(async () => {
  found = await ensureClients(AGENT_CLIS, 'seams-real-clis');
});
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Whether a request reached the model with the block in its text, verbatim. */
function reachedModel(server: ModelServer, block: string): boolean {
  return server.requests.some((r) => r.view !== undefined && r.view.text.includes(block));
}

// The CLIs run at once: each scenario has its own repository, HOME, ledger and model server.
describe.concurrent('baton run with the real agent CLIs: switch, retry and helper seams', () => {
  it.for(AGENT_CLIS)('%s', { timeout: 900_000 }, async (name, { expect, skip }) => {
    const bin = found[name];
    if (!bin) skip();
    const { run, server, dispatches, made: folders } = await runSeamsScenario(name, bin!);
    made.push(...folders);
    expect(server.problems).toEqual([]);
    expect(run.code, `${run.stderr.slice(-3_000)}\n${run.stdout.slice(-3_000)}`).toBe(0);
    const task = (JSON.parse(run.stdout) as Report).tasks[0]!;
    expect(task.status).toBe('completed');
    const byProvider = task.attempts.map((a) => `${a.attempt}:${a.provider}:${a.outcome}`);
    expect(byProvider).toEqual(['1:limited:rate_limited', '1:agent:validation_failed', '1:agent:ok', '2:agent:ok']);
    const [, first, helper, second] = task.attempts;
    // Measured by Baton in the workspace, not taken from the agent's word.
    expect(first).toMatchObject({ files_created: ['greet.js'], files_updated: [] });
    expect(helper).toMatchObject({ files_created: [], files_updated: [] });
    expect(second).toMatchObject({ files_created: ['test/greet.test.js'], files_updated: ['greet.js'] });
    // Each injected block reached the model verbatim.
    expect(first!.injected_context).toMatch(/^--- PROVIDER SWITCH CONTEXT ---\nPrevious provider \(limited\) failed: rate_limited\n/);
    expect(helper!.injected_context).toMatch(/^--- HELPER AGENT CONTEXT ---\n/);
    expect(second!.injected_context).toMatch(/^--- RETRY CONTEXT ---\n[^]*check failed: test -f test\/greet.test.js/);
    for (const attempt of [first!, helper!, second!]) expect(reachedModel(server, attempt.injected_context.trim())).toBe(true);
    // The test ran through the CLI's own shell tool, and passed.
    const shell = ['Bash', 'run_shell_command', 'exec_command', 'shell_command', 'shell', 'bash'];
    const testRun = server.turns.flatMap((t) => t.toolResults).find((r) => shell.includes(r.name) && r.text.includes('greets by name'));
    // node --test prints "# pass 1" up to Node 22 and "ℹ pass 1" from Node 24.
    expect(testRun?.text).toMatch(/^(#|ℹ) pass 1\b/m);
    expect(testRun?.isError).toBe(false);
    // The model each dispatch recorded is the one the CLI asked the server for.
    const asked = new Set(server.turns.map((t) => t.model));
    for (const d of dispatches.filter((d) => d.provider === 'agent')) expect(asked).toContain(d.model);
    const shares = batonShare(dispatches).map(
      (s) => `attempt ${s.attempt}: Baton ${Math.round(s.batonMs)} ms of ${Math.round(s.wallMs)} ms`,
    );
    console.log(`[seams-real-clis] ${name}: ${shares.join(', ')}`);
  });
});
