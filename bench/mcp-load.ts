/**
 * `npm run bench -- mcp-load [--label after|before] [--root DIR] [--files N] [--cpu-prof DIR]`: one `baton mcp
 * --http` shared by N MCP SDK clients over Streamable HTTP (issue 17), on the repository of
 * bench/lib/bench-repo.ts (50,000 files, 200 modified, 50 untracked, 12 tasks). Each client calls
 * `refresh_context` R times; "all formats" rotates minimal, standard, detailed, narrative.
 * The server is the real CLI in a child process (built code of `--root`, default this checkout),
 * with bench/lib/loop-monitor.mjs preloaded to report its longest event-loop delay
 * (perf_hooks.monitorEventLoopDelay) and peak RSS per scenario. Results go to
 * bench/results/mcp-load.json under `--label` (default "after"); the other labels are kept, so
 * `--label before --root <checkout of the old code>` records the baseline beside it.
 * `--cpu-prof DIR` runs the server under `node --cpu-prof` and leaves its profile in DIR (written
 * when the server exits after the last scenario); summarize it with bench/lib/cpu-profile-top.ts.
 * Targets: 20x20 all formats p95 <= 250 ms, >= 200 calls/s, 0 errors; 100x5: 0 errors,
 * p99 <= 1 s, RSS <= 400 MB; longest event-loop delay <= 50 ms.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ensureLoadRepo } from './lib/bench-repo.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FORMATS = ['minimal', 'standard', 'detailed', 'narrative'] as const;
const SCENARIOS = [
  { name: '1x40 standard', clients: 1, calls: 40, formats: ['standard'] },
  { name: '20x20 standard', clients: 20, calls: 20, formats: ['standard'] },
  { name: '20x20 all formats', clients: 20, calls: 20, formats: FORMATS },
  { name: '100x5 all formats', clients: 100, calls: 5, formats: FORMATS },
] as const;

export default async function run(args: string[]): Promise<void> {
  const label = flag(args, '--label') ?? 'after';
  const root = path.resolve(flag(args, '--root') ?? path.resolve(HERE, '..'));
  const files = Number(flag(args, '--files') ?? 50_000);
  const bin = path.join(root, 'bin', 'baton.js');
  if (!existsSync(path.join(root, 'dist', 'cli', 'index.js'))) throw new Error(`no build under ${root}: run \`npm run build\` there first`);
  const repo = await ensureLoadRepo(files, 'repo-load');
  const statsDir = mkdtempSync(path.join(tmpdir(), 'baton-mcp-load-'));
  const statsFile = path.join(statsDir, 'loop.json');
  const cpuProfDir = flag(args, '--cpu-prof');
  const server = await startServer(bin, repo, statsFile, cpuProfDir ? path.resolve(cpuProfDir) : undefined);
  // An idle node process with the same monitor: the machine's own scheduling noise, measured in
  // the same windows, so a stall of the server can be told from a busy shared machine.
  const controlFile = path.join(statsDir, 'control.json');
  const control = spawn(process.execPath, ['--import', path.join(HERE, 'lib', 'loop-monitor.mjs'), '-e', 'setInterval(() => {}, 1000)'], {
    env: { ...process.env, BENCH_LOOP_STATS: controlFile },
    stdio: 'ignore',
  });
  const rows: unknown[] = [];
  try {
    // A server is started once and then serves: its start-up (warm-up included) is not the load.
    await sleep(3000);
    for (const scenario of SCENARIOS) {
      rows.push(await runScenario(server.url, scenario, [server.child, control], statsFile, controlFile));
      console.log(JSON.stringify(rows.at(-1)));
    }
  } finally {
    // The profile is written on a clean exit, so wait for it.
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    if (cpuProfDir) await Promise.race([exited, sleep(30_000)]);
    control.kill('SIGTERM');
    rmSync(statsDir, { recursive: true, force: true });
  }
  const out = path.join(HERE, 'results', 'mcp-load.json');
  const previous = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>) : {};
  const result = {
    ...previous,
    repository: { files, modified: 200, untracked: 50, tasks: 12 },
    targets: {
      '20x20 all formats': 'p95 <= 250 ms, >= 200 calls/s, 0 errors',
      '100x5 all formats': '0 errors, p99 <= 1000 ms, rss <= 400 MB',
      all: 'max event-loop delay <= 50 ms',
    },
    [label]: { root, at: new Date().toISOString(), node: process.version, load_1m: round(loadavg()[0] ?? 0), scenarios: rows },
  };
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${out} (${label})`);
}

async function startServer(
  bin: string,
  repo: string,
  statsFile: string,
  cpuProfDir: string | undefined,
): Promise<{ url: string; child: ChildProcess }> {
  const profile = cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : [];
  const child = spawn(
    process.execPath,
    [...profile, '--import', path.join(HERE, 'lib', 'loop-monitor.mjs'), bin, 'mcp', '--http', '--port', '0', '--workspace', repo],
    { cwd: repo, env: { ...process.env, BATON_LOG_LEVEL: 'warn', BENCH_LOOP_STATS: statsFile }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
  return { url, child };
}

async function runScenario(
  url: string,
  scenario: (typeof SCENARIOS)[number],
  monitored: ChildProcess[],
  statsFile: string,
  controlFile: string,
): Promise<Record<string, unknown>> {
  const clients = await Promise.all(Array.from({ length: scenario.clients }, () => connect(url)));
  // Let the clients' notification streams settle, then open the measurement window (event-loop
  // delay, GC, RSS) right before the first call and close it right after the last, so it covers
  // the serving and nothing else (connects and closes are outside it).
  await sleep(300);
  await Promise.all(monitored.map((child, i) => closeWindow(child, i === 0 ? statsFile : controlFile)));
  const latencies: number[] = [];
  let errors = 0;
  const firstErrors: string[] = [];
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = 0; i < scenario.calls; i += 1) {
        const format = scenario.formats[(c + i) % scenario.formats.length];
        const t = performance.now();
        try {
          const result = await client.callTool({ name: 'refresh_context', arguments: { format } });
          if (result.isError) throw new Error(JSON.stringify(result.content).slice(0, 200));
        } catch (error) {
          errors += 1;
          if (firstErrors.length < 3) firstErrors.push(String(error instanceof Error ? error.message : error).slice(0, 200));
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - started;
  const [loop = {}, idle = {}] = await Promise.all(monitored.map((child, i) => closeWindow(child, i === 0 ? statsFile : controlFile)));
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  return {
    scenario: scenario.name,
    errors,
    calls_per_s: round((latencies.length / wall) * 1000),
    p50_ms: round(percentile(latencies, 50)),
    p95_ms: round(percentile(latencies, 95)),
    p99_ms: round(percentile(latencies, 99)),
    max_event_loop_delay_ms: loop.max_ms,
    p99_event_loop_delay_ms: loop.p99_ms,
    longest_gc_pause_ms: loop.gc_max_ms,
    idle_process_max_delay_ms: idle.max_ms,
    rss_max_mb: loop.rss_max_mb,
    ...(firstErrors.length > 0 ? { first_errors: firstErrors } : {}),
  };
}

/** Closes a monitored process's measurement window (SIGUSR2) and returns that window's stats. */
async function closeWindow(child: ChildProcess, statsFile: string): Promise<Record<string, number>> {
  const windowFile = `${statsFile}.window`;
  const read = (): Record<string, number> | undefined => {
    try {
      return JSON.parse(readFileSync(windowFile, 'utf8')) as Record<string, number>;
    } catch {
      return undefined; // not written yet, or caught mid-write
    }
  };
  const before = read()?.window ?? -1;
  child.kill('SIGUSR2');
  for (let waited = 0; waited < 5000; waited += 10) {
    const stats = read();
    if (stats && (stats.window ?? -1) > before) return stats;
    await sleep(10);
  }
  return {};
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'bench-mcp-load', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
