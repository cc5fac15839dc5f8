/**
 * Issue 37's import cost: `npm run bench -- sessions-import [--mb N] [--runs N] [--against DIST]`.
 * Lays out one Claude Code transcript of N MB (default 50: the real transcripts of
 * ../shared/fixtures/agent-sessions/claude-code repeated, tool ids made unique) in a temp HOME and
 * times `importSessions` into a fresh SQLite ledger, fresh process per run (cold, as a hook or
 * `baton sessions` runs it): MB/s of wall time and of the process's CPU time (less bent by the
 * other processes of a loaded machine). Then the incremental case: 1 MB appended, read from the
 * stored offset. `--against DIST` (another build's dist/, e.g. /work/main/dist) runs the same in
 * alternating rounds for a before/after. Writes bench/results/sessions-import.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHARED_SESSIONS_DIR } from '../src/bench/index.js';
import { quantile, sessionHomeEnv, writeBigClaudeSession } from './lib/session-home.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** One cold import in a child process: prints {ms, cpuMs, bytes, imported} as JSON. */
const CHILD = `
const [dist, ws] = process.argv.slice(1);
const { openLedger } = await import(dist + '/ledger/index.js');
const { importSessions } = await import(dist + '/sessions/index.js');
const cpu0 = process.cpuUsage(); const t0 = performance.now();
const ledger = await openLedger({ spec: process.env.BATON_LEDGER, cwd: ws });
const r = await importSessions(ledger, { cwd: ws, env: process.env });
await ledger.close();
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, bytes: r.bytes, imported: r.imported }));
`;

interface Run {
  ms: number;
  cpuMs: number;
  bytes: number;
  imported: number;
}

export default async function run(args: string[]): Promise<void> {
  const mb = Number(flag(args, '--mb') ?? 50);
  const runs = Number(flag(args, '--runs') ?? 3);
  const against = flag(args, '--against');
  const builds: Record<string, string> = { this: path.resolve(here, '..', 'dist'), ...(against ? { against: path.resolve(against) } : {}) };
  const base = await mkdtemp(path.join(os.tmpdir(), 'baton-bench-import-'));
  const loads: number[] = [os.loadavg()[0] as number];
  const whole: Record<string, Run[]> = Object.fromEntries(Object.keys(builds).map((k) => [k, []]));
  const appended: Record<string, Run[]> = Object.fromEntries(Object.keys(builds).map((k) => [k, []]));
  let size: number;
  try {
    const workspace = path.join(base, 'ws');
    const env = sessionHomeEnv(path.join(base, 'home'));
    await mkdir(workspace, { recursive: true });
    const big = await writeBigClaudeSession(
      path.resolve(here, '..', SHARED_SESSIONS_DIR, 'claude-code'),
      path.join(base, 'home'),
      workspace,
      mb * 1e6,
    );
    size = big.size;
    const text = await import('node:fs/promises').then((fs) => fs.readFile(big.file));
    for (let round = 0; round < runs; round += 1) {
      for (const [name, dist] of Object.entries(builds)) {
        await writeFile(big.file, text);
        await rm(path.join(base, 'home', 'ledger.db'), { force: true });
        whole[name]?.push(child(dist, workspace, env));
        // 1 MB more of the same transcript: read from the stored offset (a build without it reads all).
        await writeFile(big.file, Buffer.concat([text, text.subarray(0, text.indexOf(10, 1e6) + 1)]));
        appended[name]?.push(child(dist, workspace, env));
        loads.push(os.loadavg()[0] as number);
      }
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  const summary = (list: Run[]) => ({
    wall_ms_median: quantile(
      list.map((r) => r.ms),
      0.5,
    ),
    cpu_ms_median: quantile(
      list.map((r) => r.cpuMs),
      0.5,
    ),
    mb_per_s_wall: round(
      list[0]!.bytes /
        1e6 /
        (quantile(
          list.map((r) => r.ms),
          0.5,
        ) /
          1000),
    ),
    mb_per_s_cpu: round(
      list[0]!.bytes /
        1e6 /
        (quantile(
          list.map((r) => r.cpuMs),
          0.5,
        ) /
          1000),
    ),
    bytes_read: list[0]?.bytes,
  });
  const report = {
    machine: {
      load_average_1m_during: { min: round(Math.min(...loads)), max: round(Math.max(...loads)) },
      cpus: os.cpus().length,
      node: process.version,
    },
    file_mb: round(size / 1e6),
    runs,
    builds,
    whole_file: Object.fromEntries(Object.entries(whole).map(([k, v]) => [k, summary(v)])),
    appended_1mb: Object.fromEntries(Object.entries(appended).map(([k, v]) => [k, summary(v)])),
  };
  const out = path.join(here, 'results', 'sessions-import.json');
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
}

function child(dist: string, workspace: string, env: NodeJS.ProcessEnv): Run {
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, dist, workspace], { env, encoding: 'utf8' });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Run;
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}
