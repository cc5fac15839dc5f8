/**
 * `npm run bench -- cold [--runs N] [--files N] [--bin PATH]`: the first answer of fresh processes (issue 16),
 * all in one run so the ratios compare like with like on a shared machine. On the repository of
 * bench/lib/bench-repo.ts (50,000 files, 200 modified, 50 untracked, 12 tasks) it spawns, as a
 * client does:
 * - `node -e 0`, `baton --version`, `baton --help`, `baton status`, `baton refresh` (CLI) and
 *   `git status --porcelain=v2 --branch`, in interleaved rounds;
 * - `baton mcp --workspace REPO` through the MCP SDK client over stdio: ready (initialize
 *   answered), the first `refresh_context` standard right after `initialize` and after a 1 s pause,
 *   and warm calls in the same process;
 * - the peer mcp-memory-keeper 0.14.1 the same way, when installed under /tmp/peer-cache;
 * - a CPU profile of one cold `baton mcp` (start, initialize, first call), summarised by package.
 * Medians of `--runs` (default 5). Needs a build (`npm run build`). Writes bench/results/cold.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ensureLoadRepo } from './lib/bench-repo.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const PEER = '/tmp/peer-cache/node_modules/mcp-memory-keeper/dist/index.js';
const WARM_CALLS = 10;

export default async function run(args: string[]): Promise<void> {
  const runs = Number(flag(args, '--runs') ?? 5);
  // --bin: another build's bin/baton.js (an older commit's checkout), for before/after runs.
  const BIN = path.resolve(flag(args, '--bin') ?? path.join(ROOT, 'bin', 'baton.js'));
  const files = Number(flag(args, '--files') ?? 50_000);
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'index.js'))) throw new Error('bench cold runs the built CLI: run `npm run build` first');
  const repo = await ensureLoadRepo(files, 'repo-load');
  const load = [loadavg()[0]];
  const env = { ...process.env, BATON_LOG_LEVEL: 'warn' };

  const commands: Record<string, [string, string[]]> = {
    node_e0: [process.execPath, ['-e', '0']],
    baton_version: [process.execPath, [BIN, '--version']],
    baton_help: [process.execPath, [BIN, '--help']],
    baton_status: [process.execPath, [BIN, 'status']],
    baton_refresh: [process.execPath, [BIN, 'refresh']],
    git_status: ['git', ['status', '--porcelain=v2', '--branch']],
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (let round = 0; round < runs; round += 1) {
    for (const [name, [command, argv]] of Object.entries(commands)) {
      const started = performance.now();
      const result = spawnSync(command, argv, { cwd: repo, env, stdio: ['ignore', 'ignore', 'pipe'] });
      if (result.status !== 0) throw new Error(`${name} exited ${result.status}: ${String(result.stderr)}`);
      times[name]?.push(performance.now() - started);
    }
  }
  load.push(loadavg()[0]);

  const peerData = mkdtempSync(path.join(tmpdir(), 'peer-data-'));
  const servers: McpServer[] = [
    {
      spawn: () => ({ command: process.execPath, args: [BIN, 'mcp', '--workspace', repo], cwd: repo, env }),
      call: { name: 'refresh_context', arguments: { format: 'standard' } },
    },
  ];
  if (existsSync(PEER)) {
    servers.push({
      // A fresh data folder per start: the peer's compaction checkpoints pile up in one, and each
      // call returns all of them (past ~10 starts the answer outgrows a JavaScript string).
      spawn: () => ({
        command: process.execPath,
        args: [PEER],
        cwd: repo,
        env: { ...env, DATA_DIR: mkdtempSync(path.join(peerData, 'start-')) },
      }),
      call: { name: 'context_prepare_compaction', arguments: {} },
    });
  }
  // git status again between the servers' rounds: the first call is compared with git status
  // measured in the same stretch of time.
  const [gitCommand, gitArgs] = commands.git_status as [string, string[]];
  const [baton, peer] = await measureMcp(runs, servers, () => {
    const started = performance.now();
    spawnSync(gitCommand, gitArgs, { cwd: repo, stdio: 'ignore' });
    times.git_status?.push(performance.now() - started);
  });
  if (!baton) throw new Error('no Baton samples');
  rmSync(peerData, { recursive: true, force: true });
  load.push(loadavg()[0]);
  const profile = await profileColdMcp(BIN, repo, env);

  const m = (values: number[] | undefined) => round(median(values ?? []));
  const node = m(times.node_e0);
  const git = m(times.git_status);
  const result = {
    machine: { cpus: cpus().length, load_1m_during_run: load.map((value) => round(value ?? 0)), node: process.version },
    repository: { files, modified: 200, untracked: 50, tasks: 12 },
    runs,
    median_ms: {
      node_e0: node,
      baton_version: m(times.baton_version),
      baton_help: m(times.baton_help),
      baton_status: m(times.baton_status),
      baton_refresh_cli: m(times.baton_refresh),
      git_status: git,
      mcp_ready: m(baton.ready),
      mcp_first_refresh_after_initialize: m(baton.first),
      mcp_first_refresh_after_1s_pause: m(baton.paused),
      mcp_warm_refresh: m(baton.warm),
      ...(peer
        ? {
            peer_ready: m(peer.ready),
            peer_first_call: m(peer.first),
            peer_first_call_after_1s_pause: m(peer.paused),
            peer_warm_call: m(peer.warm),
          }
        : {}),
    },
    ratios: {
      mcp_ready_vs_node: ratio(m(baton.ready), node),
      ...(peer ? { mcp_ready_vs_peer: ratio(m(baton.ready), m(peer.ready)) } : {}),
      first_refresh_vs_git_status: ratio(m(baton.first), git),
      first_refresh_after_pause_vs_git_status: ratio(m(baton.paused), git),
      warm_refresh_vs_git_status: ratio(m(baton.warm), git),
      version_vs_node: ratio(m(times.baton_version), node),
      status_vs_node: ratio(m(times.baton_status), node),
    },
    targets: {
      mcp_ready: peer ? 'mcp_ready_vs_peer <= 1.3' : 'mcp_ready_vs_node <= 2.5',
      first_refresh_vs_git_status: '<= 1.5',
      first_refresh_after_pause_vs_git_status: '<= 1.2',
      warm_refresh_vs_git_status: '<= 0.15',
      version_vs_node: '<= 1.5',
      status_vs_node: '<= 2',
    },
    errors: baton.errors + (peer?.errors ?? 0),
    cold_mcp_cpu_profile: profile,
  };
  const out = path.join(HERE, 'results', 'cold.json');
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

interface McpTimes {
  ready: number[];
  first: number[];
  paused: number[];
  warm: number[];
  errors: number;
}

type Spawn = () => { command: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv };

interface McpServer {
  spawn: Spawn;
  call: { name: string; arguments: Record<string, unknown> };
}

/**
 * Fresh server per sample: spawn -> initialize answered (ready) -> first call, at once or after
 * 1 s. The servers take turns sample by sample (and `between` runs between rounds), so a load
 * change on the shared machine falls on all of them alike and their ratios stay fair.
 */
async function measureMcp(runs: number, servers: McpServer[], between: () => void): Promise<McpTimes[]> {
  const all = servers.map((): McpTimes => ({ ready: [], first: [], paused: [], warm: [], errors: 0 }));
  for (let i = 0; i < runs; i += 1) {
    for (const pause of [0, 1000]) {
      for (const [s, { spawn, call }] of servers.entries()) {
        const times = all[s] as McpTimes;
        const { client, readyMs } = await connect(spawn);
        if (pause === 0) times.ready.push(readyMs);
        else await sleep(pause);
        const first = await timed(() => client.callTool(call));
        if ((first.value as { isError?: boolean }).isError) times.errors += 1;
        (pause === 0 ? times.first : times.paused).push(first.ms);
        if (pause > 0 && i === 0) {
          for (let k = 0; k < WARM_CALLS; k += 1) times.warm.push((await timed(() => client.callTool(call))).ms);
        }
        await client.close();
      }
      between();
    }
  }
  return all;
}

async function connect(spawn: Spawn): Promise<{ client: Client; readyMs: number }> {
  const { command, args, cwd, env } = spawn();
  const transport = new StdioClientTransport({ command, args, cwd, env: env as Record<string, string>, stderr: 'ignore' });
  const client = new Client({ name: 'bench-cold', version: '1.0.0' });
  const started = performance.now();
  await client.connect(transport);
  return { client, readyMs: performance.now() - started };
}

/** One cold `baton mcp` under --cpu-prof: self time by package, the biggest first. */
async function profileColdMcp(bin: string, repo: string, env: NodeJS.ProcessEnv): Promise<unknown> {
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-cold-prof-'));
  try {
    const { client } = await connect(() => ({
      command: process.execPath,
      args: ['--cpu-prof', `--cpu-prof-dir=${dir}`, bin, 'mcp', '--workspace', repo],
      cwd: repo,
      env,
    }));
    await client.callTool({ name: 'refresh_context', arguments: { format: 'standard' } });
    await client.close();
    for (let i = 0; i < 50 && readdirSync(dir).length === 0; i += 1) await sleep(100);
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) return { error: 'no profile written' };
    return summarizeProfile(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    hitCount?: number;
  }>;
  startTime: number;
  endTime: number;
  samples: number[];
}

function summarizeProfile(profile: CpuProfile): unknown {
  const sampleMs = (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples.length);
  const byGroup = new Map<string, number>();
  const unbundle = bundleSources();
  for (const node of profile.nodes) {
    const ms = (node.hitCount ?? 0) * sampleMs;
    if (ms === 0) continue;
    const group = groupOf(unbundle(node.callFrame));
    byGroup.set(group, (byGroup.get(group) ?? 0) + ms);
  }
  const total = [...byGroup.values()].reduce((a, b) => a + b, 0);
  return {
    wall_ms: round((profile.endTime - profile.startTime) / 1000),
    sampled_ms: round(total),
    self_ms_by_group: Object.fromEntries(
      [...byGroup.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([group, ms]) => [group, round(ms)]),
    ),
  };
}

/**
 * Where a frame of the bundled command (dist/cli-bundle) came from, through the bundle's source
 * maps: a frame of inlined zod then counts as zod, not as the bundle.
 */
function bundleSources(): (frame: CpuProfile['nodes'][number]['callFrame']) => { functionName: string; url: string } {
  const maps = new Map<string, SourceMap | undefined>();
  return (frame) => {
    if (!frame.url.includes('/dist/cli-bundle/') || frame.lineNumber < 0) return frame;
    if (!maps.has(frame.url)) {
      const file = `${fileURLToPath(frame.url)}.map`;
      maps.set(frame.url, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8')) as SourceMapPayload) : undefined);
    }
    const entry = maps.get(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
    const source = entry && 'originalSource' in entry ? entry.originalSource : undefined;
    return source ? { functionName: frame.functionName, url: new URL(source, frame.url).href } : frame;
  };
}

/** node_modules package, Baton module (dist/<module>), node internals, or V8's own entries. */
function groupOf(frame: { functionName: string; url: string }): string {
  const { url, functionName } = frame;
  if (!url) return `(${functionName || 'anonymous'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg?.[1]) return pkg[1];
  const own = /\/(dist|bin)\/([^/]+)/.exec(url);
  if (own) return own[1] === 'bin' ? 'baton bin' : `baton ${own[2]?.replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return 'node internals';
  return url;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function ratio(a: number, b: number): number {
  return Math.round((a / b) * 100) / 100;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
