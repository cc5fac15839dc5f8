/**
 * `npm run bench -- hooks-clients [--runs N] [--clis claude,codex,gemini]`: what Baton's hooks
 * add to a short session of each real agent CLI (issue 37: ≤ +0.4 s for Claude Code and Codex,
 * ≤ +0.8 s for Gemini CLI). Each pinned CLI runs the same scripted session (write a file, run a
 * failing command, answer) behind the scripted model server, `--runs` times (default 3) in a
 * project without the hooks and in one with them (`baton hooks install`; Codex with
 * --dangerously-bypass-hook-trust), alternating; reports the median wall time of each and the
 * difference, and the same for the CPU time of the client and the hooks it waits for (load-robust;
 * the Stop and SessionEnd folds run in detached children the client does not wait for, reparented
 * away from this process, so their CPU is not in it: src/hooks/hook-jobs.ts). Needs a
 * build (the hooks run bin/baton.js) and the pinned CLIs (installed on demand).
 * Writes bench/results/hooks-clients.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentCliName, ensureClients, prepareAgentCli } from '../test/helpers/agent-clis/index.js';
import { runBaton } from '../test/helpers/cli.js';
import { clientTools, type Respond, say, startModelServer } from '../test/helpers/model-server/index.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench', 'results', 'hooks-clients.json');

const session: Respond = (view) => {
  const tools = clientTools(view.client);
  if (view.toolResults.length === 0) return tools.writeFile('hello.txt', 'hi\n');
  if (view.toolResults.length === 1) return tools.runShell('ls /nonexistent-baton-dir');
  return say('Wrote hello.txt; the listing failed.');
};

export default async function run(args: string[]): Promise<void> {
  const runs = Number(flag(args, '--runs') ?? 3);
  const names = (flag(args, '--clis')?.split(',') ?? ['claude', 'codex', 'gemini']) as AgentCliName[];
  const bins = await ensureClients(names, 'bench hooks-clients');
  const results: Record<string, unknown> = {};
  const load = [loadavg()[0] ?? 0];
  for (const name of names) {
    if (!bins[name]) continue;
    const without = await timeSessions(name, runs, false);
    const withHooks = await timeSessions(name, runs, true);
    const added = median(withHooks.times) - median(without.times);
    const addedCpu = median(withHooks.cpu) - median(without.cpu);
    results[name] = {
      withoutMs: without.times,
      withMs: withHooks.times,
      medianWithoutMs: median(without.times),
      medianWithMs: median(withHooks.times),
      addedMs: added,
      withoutCpuMs: without.cpu,
      withCpuMs: withHooks.cpu,
      addedCpuMs: addedCpu,
    };
    console.log(
      `${name}: without hooks ${median(without.times)} ms, with ${median(withHooks.times)} ms: +${added} ms; CPU +${addedCpu} ms (runs ${runs})`,
    );
    load.push(loadavg()[0] ?? 0);
  }
  await mkdir(path.dirname(RESULTS), { recursive: true });
  await writeFile(
    RESULTS,
    `${JSON.stringify({ at: new Date().toISOString(), cpus: cpus().length, load1: load, runs, results }, null, 2)}\n`,
  );
  console.log(`wrote ${path.relative(ROOT, RESULTS)}`);
}

async function timeSessions(name: AgentCliName, runs: number, hooks: boolean): Promise<{ times: number[]; cpu: number[] }> {
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const repo = project();
    const server = await startModelServer({ respond: session });
    const cli = await prepareAgentCli(name, { serverUrl: server.url, cwd: repo });
    try {
      if (hooks) {
        const scope = name === 'codex' ? 'user' : 'project';
        const install = await runBaton(['hooks', 'install', '--client', name, '--scope', scope], {
          cwd: repo,
          env: { HOME: cli.home, CODEX_HOME: cli.configDir },
        });
        if (install.code !== 0) throw new Error(`${name}: hooks install failed: ${install.stderr}`);
      }
      const extraArgs = hooks && name === 'codex' ? ['--dangerously-bypass-hook-trust'] : [];
      const cpuBefore = childrenCpuMs();
      const result = await cli.run('Make hello.txt, then list the missing folder.', { extraArgs });
      if (result.code !== 0) throw new Error(`${name}: exited ${result.code}: ${result.stderr.slice(-800)}`);
      times.push(Math.round(result.durationMs));
      cpu.push(childrenCpuMs() - cpuBefore);
      // Untimed: the folds the hooks handed to detached children finish before the next run starts.
      await hookJobsDone(repo);
    } finally {
      cli.cleanup();
      await server.close();
      rmSync(repo, { recursive: true, force: true });
    }
  }
  return { times, cpu };
}

/**
 * CPU time (user + system) of this process's waited-for descendants (/proc/self/stat cutime +
 * cstime, in 10 ms ticks): the client and every hook it ran and waited for. Unlike wall time it
 * hardly moves with the shared machine's load; -1 where /proc is missing.
 */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of stat(5) (cutime, cstime); index 13 and 14 after the command name.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return -1;
  }
}

/** A user's project: a git repository with Baton as a dev dependency (its bin linked). */
function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-bench-hooks-'));
  mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(path.join(ROOT, 'bin', 'baton.js'), path.join(dir, 'node_modules', '.bin', 'baton'));
  writeFileSync(path.join(dir, '.gitignore'), '.baton/\nnode_modules/\n');
  const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'start');
  return dir;
}

/** Waits until the hooks' handed-off folds are done: each removes its job file under `.baton/hooks/jobs/`. */
async function hookJobsDone(repo: string): Promise<void> {
  const dir = path.join(repo, '.baton', 'hooks', 'jobs');
  while (existsSync(dir) && readdirSync(dir).some((name) => name.endsWith('.json')))
    await new Promise((resolve) => setTimeout(resolve, 10));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
