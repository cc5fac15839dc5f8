/**
 * Issue 37's handoff latency: `npm run bench -- handoff-print [--runs N] [--mb N] [--bin PATH]`.
 * A temp HOME whose Claude Code store holds one transcript of N MB (default 5: the real
 * transcripts of ../shared/fixtures/agent-sessions/claude-code repeated) for a git workspace;
 * `baton handoff --print` run as a user runs it (a fresh process each time, the built bin): the
 * first run (it imports the file) apart, then p50/p95 of `--runs` more (default 12). `--bin`
 * (another build's bin/baton.js, e.g. /work/main/bin/baton.js) runs in alternating rounds for a
 * before/after. Needs `npm run build`. Writes bench/results/handoff-print.json. Beside the wall
 * times, the CPU each run used (user + system, its child processes included; Linux: this process's
 * children's times in /proc/self/stat, 10 ms ticks): on a machine other work loads, the wall time
 * grows with the load, the CPU time much less.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHARED_SESSIONS_DIR } from '../src/bench/index.js';
import { quantile, sessionHomeEnv, writeBigClaudeSession } from './lib/session-home.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export default async function run(args: string[]): Promise<void> {
  const runs = Number(flag(args, '--runs') ?? 12);
  const mb = Number(flag(args, '--mb') ?? 5);
  const other = flag(args, '--bin');
  const bins: Record<string, string> = {
    this: path.resolve(here, '..', 'bin', 'baton.js'),
    ...(other ? { against: path.resolve(other) } : {}),
  };
  const base = await mkdtemp(path.join(os.tmpdir(), 'baton-bench-handoff-'));
  const loads: number[] = [os.loadavg()[0] as number];
  const first: Record<string, number> = {};
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(bins).map((k) => [k, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(bins).map((k) => [k, []]));
  let size = 0;
  let tokens = 0;
  try {
    const workspace = path.join(base, 'ws');
    await mkdir(workspace, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: workspace });
    const homes = Object.fromEntries(Object.keys(bins).map((k) => [k, path.join(base, `home-${k}`)]));
    for (const home of Object.values(homes)) {
      size = (await writeBigClaudeSession(path.resolve(here, '..', SHARED_SESSIONS_DIR, 'claude-code'), home, workspace, mb * 1e6)).size;
    }
    for (const [name, bin] of Object.entries(bins)) first[name] = once(bin, workspace, sessionHomeEnv(homes[name] as string)).ms;
    for (let round = 0; round < runs; round += 1) {
      for (const [name, bin] of Object.entries(bins)) {
        const r = once(bin, workspace, sessionHomeEnv(homes[name] as string));
        times[name]?.push(r.ms);
        if (r.cpuMs !== undefined) cpu[name]?.push(r.cpuMs);
        tokens = r.bytes;
      }
      loads.push(os.loadavg()[0] as number);
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  const report = {
    machine: {
      load_average_1m_during: { min: round(Math.min(...loads)), max: round(Math.max(...loads)) },
      cpus: os.cpus().length,
      node: process.version,
    },
    session_mb: round(size / 1e6),
    runs,
    bins,
    handoff_print_bytes: tokens,
    first_run_ms_with_import: first,
    handoff_print_ms: Object.fromEntries(
      Object.entries(times).map(([k, v]) => [k, { p50: quantile(v, 0.5), p95: quantile(v, 0.95), max: quantile(v, 1) }]),
    ),
    handoff_print_cpu_ms: Object.fromEntries(
      Object.entries(cpu)
        .filter(([, v]) => v.length > 0)
        .map(([k, v]) => [k, { p50: quantile(v, 0.5), p95: quantile(v, 0.95) }]),
    ),
  };
  const out = path.join(here, 'results', 'handoff-print.json');
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
}

function once(bin: string, cwd: string, env: NodeJS.ProcessEnv): { ms: number; bytes: number; cpuMs?: number } {
  const before = childrenCpuMs();
  const t0 = performance.now();
  const out = execFileSync(process.execPath, [bin, 'handoff', '--print'], { cwd, env, encoding: 'utf8' });
  const ms = performance.now() - t0;
  const after = childrenCpuMs();
  return { ms, bytes: Buffer.byteLength(out), ...(before !== undefined && after !== undefined ? { cpuMs: after - before } : {}) };
}

/** User + system CPU of this process's waited-for children so far (Linux /proc/self/stat cutime + cstime, 100 ticks a second), else undefined. */
function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (in parentheses, which may hold spaces): cutime and cstime are the 16th and 17th fields.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[13]) + Number(rest[14])) * 10;
  } catch {
    return undefined;
  }
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}
