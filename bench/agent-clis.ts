/**
 * `npm run bench -- agent-clis [--runs N] [--clis claude,codex]`: Baton's own share of an attempt
 * with the real agent CLIs (issue 26). Runs test/providers/seams-scenario.ts (issue 26's plan
 * through the built `baton run`: a command provider answering 429, then the real CLI with the
 * PROVIDER SWITCH block, the helper, and attempt 2 with the RETRY block) `--runs` times per CLI
 * (default 3), each CLI at its pinned version behind the scripted model server, and reports per
 * attempt the median and range of Baton's share: from the attempt's first try's start to its last
 * try's end, less the time the agent processes ran (the workspace snapshots before and after each
 * try, classification, the ledger, the breaker and the pre-context block). Needs a build and the
 * pinned CLIs (installed on demand). Writes bench/results/agent-clis.json.
 */
import { rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentCliName, AGENT_CLIS, ensureClients } from '../test/helpers/agent-clis/index.js';
import { batonShare, runSeamsScenario } from '../test/providers/seams-scenario.js';

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'agent-clis.json');

export default async function run(args: string[]): Promise<void> {
  const runs = Number(flag(args, '--runs') ?? 3);
  const names = (flag(args, '--clis')?.split(',') ?? AGENT_CLIS) as AgentCliName[];
  const bins = await ensureClients(names, 'bench agent-clis');
  const load = [loadavg()[0] ?? 0];
  const results: Record<string, unknown> = {};
  for (const name of names) {
    const bin = bins[name];
    if (!bin) continue;
    const first: number[] = [];
    const later: number[] = [];
    const agentMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { run: baton, dispatches, made } = await runSeamsScenario(name, bin);
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
      if (baton.code !== 0) throw new Error(`${name}: baton run exited ${baton.code}: ${baton.stderr.slice(-1_000)}`);
      for (const share of batonShare(dispatches)) (share.attempt === 1 ? first : later).push(share.batonMs);
      agentMs.push(...dispatches.filter((d) => d.provider === 'agent' && d.mode !== 'helper').map((d) => d.durationMs ?? 0));
      load.push(loadavg()[0] ?? 0);
    }
    results[name] = { first_attempt_baton_ms: summary(first), later_attempts_baton_ms: summary(later), agent_run_ms: summary(agentMs) };
    console.log(
      `${name}: Baton's share, first attempt ${describe(first)}; later ${describe(later)}; the CLI's own run ${describe(agentMs)}`,
    );
  }
  const report = { machine: { cpus: cpus().length, load_1m_during_run: load.map(round), node: process.version }, runs, clis: results };
  await mkdir(path.dirname(RESULTS), { recursive: true });
  await writeFile(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), RESULTS)}`);
}

function summary(values: readonly number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: round(sorted[Math.floor(sorted.length / 2)] ?? 0), min: round(sorted[0] ?? 0), max: round(sorted.at(-1) ?? 0) };
}

function describe(values: readonly number[]): string {
  const { median, min, max } = summary(values);
  return `median ${median} ms (${min}-${max})`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}
