import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { MemoryLedger, openLedger } from '../../src/ledger/index.js';
import { silentLogger } from '../../src/observability/index.js';
import { identifyProcess, liveGroupMembers } from '../../src/providers/index.js';
import { endStaleAgentGroups } from '../../src/supervisor/end-stale-agents.js';
import type { SupervisorEvent } from '../../src/supervisor/index.js';

const ROOT = path.resolve(__dirname, '../..');
// The built CLI (npm run build first): the supervisor runs as a real child process, as a user runs it.
const BATON = path.join(ROOT, 'bin/baton.js');
const AGENT = path.join(__dirname, 'agents/long-agent.mjs');

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(50);
  }
}

function runBaton(dir: string, args: string[]) {
  const child = spawn(process.execPath, [BATON, ...args], {
    cwd: dir,
    env: { ...process.env, BATON_LEASE_MS: '1500' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

describe('resuming after the supervisor was SIGKILLed', () => {
  it.skipIf(process.platform !== 'linux')(
    "ends the interrupted attempt's agent group before attempt 2 starts (the agent's own log shows no overlap)",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'baton-stale-'));
      const log = path.join(dir, '..', `${path.basename(dir)}.agent.log`);
      writeFileSync(
        path.join(dir, 'plan.yaml'),
        'tasks:\n  - id: job\n    instructions: Produce result.txt.\n    acceptance_criteria:\n      - description: result exists\n        check: test -f result.txt\n',
      );
      writeFileSync(
        path.join(dir, 'baton.config.json'),
        JSON.stringify({
          providers: { slow: { type: 'command', command: [process.execPath, AGENT], env: { LONG_AGENT_LOG: log } } },
          priority: ['slow'],
        }),
      );
      const args = ['run', 'plan.yaml', '--config', 'baton.config.json', '--ledger', 'sqlite:state.db'];

      const first = runBaton(dir, args);
      await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').startsWith('start 1 '), 20_000);
      first.child.kill('SIGKILL');
      await first.exited;
      const agentPid = Number(readFileSync(log, 'utf8').trim().split(' ')[3]);

      // The dead supervisor had recorded the agent's group before waiting on it.
      const ledger = await openLedger({ spec: 'sqlite:state.db', cwd: dir });
      const [running] = await ledger.lastDispatches('job', 5);
      await ledger.close();
      expect(running?.status).toBe('running');
      expect(running?.agentProcess).toMatchObject({ pid: agentPid, host: hostname() });
      expect(liveGroupMembers(running!.agentProcess!)).toContain(agentPid);

      const second = runBaton(dir, [...args, '--json']);
      expect(await second.exited).toBe(0);
      expect(second.output()).toContain(
        `job: attempt 1's agent (process group ${agentPid}) was still running from the interrupted run; ended it with SIGTERM before starting the next attempt`,
      );

      const lines = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(' '));
      expect(lines.map(([what, attempt, , how]) => `${what} ${attempt}${what === 'end' ? ` ${how}` : ''}`)).toEqual([
        'start 1',
        'end 1 TERM',
        'start 2',
        'end 2 done',
      ]);
      const endOf1 = Number(lines[1]![2]);
      const startOf2 = Number(lines[2]![2]);
      expect(endOf1).toBeLessThanOrEqual(startOf2);
      expect(readFileSync(path.join(dir, 'result.txt'), 'utf8')).toBe('done\n');

      const after = await openLedger({ spec: 'sqlite:state.db', cwd: dir });
      const [, interrupted] = await after.lastDispatches('job', 5);
      await after.close();
      expect(interrupted).toMatchObject({ attempt: 1, status: 'interrupted' });
      expect(interrupted?.result).toBe(
        `agent process group ${agentPid} was still running after its supervisor died; the resumed run ended it with SIGTERM`,
      );
    },
    60_000,
  );

  it.skipIf(process.platform !== 'linux')(
    'never signals a live process whose start time differs from the record (a reused pid)',
    async () => {
      const other = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
      try {
        await waitFor(() => identifyProcess(other.pid!).startTime !== '', 5_000);
        const real = identifyProcess(other.pid!);
        const ledger = new MemoryLedger();
        const d = await ledger.appendDispatch({ taskId: 't', attempt: 1, provider: 'p', status: 'running', startedAt: 1 });
        // Same pid and host, another start time: the recorded agent is gone and its pid was reused.
        await ledger.updateDispatch(d.id, { agentProcess: { ...real, startTime: String(Number(real.startTime) - 1) } });
        const events: SupervisorEvent[] = [];
        expect(await endStaleAgentGroups(ledger, 't', { logger: silentLogger, onEvent: (e) => events.push(e), graceMs: 100 })).toEqual([]);
        expect(events).toEqual([]);
        expect(liveGroupMembers(real)).toEqual([other.pid]);

        // The real record ends it, with SIGTERM (sleep does not ignore it).
        await ledger.updateDispatch(d.id, { agentProcess: real });
        const ended = await endStaleAgentGroups(ledger, 't', { logger: silentLogger, onEvent: (e) => events.push(e), graceMs: 2_000 });
        expect(ended).toEqual([{ dispatchId: d.id, attempt: 1, pid: other.pid, signal: 'SIGTERM', gone: true }]);
        expect(liveGroupMembers(real)).toEqual([]);
      } finally {
        other.kill('SIGKILL');
      }
    },
  );

  it.skipIf(process.platform !== 'linux')(
    'escalates to SIGKILL after the grace period when the group ignores SIGTERM, grandchildren included',
    async () => {
      const agent = spawn('sh', ['-c', 'trap "" TERM; sleep 30 & sleep 30; wait'], { detached: true, stdio: 'ignore' });
      try {
        await waitFor(
          () => identifyProcess(agent.pid!).startTime !== '' && liveGroupMembers(identifyProcess(agent.pid!)).length >= 2,
          5_000,
        );
        const recorded = identifyProcess(agent.pid!);
        const ledger = new MemoryLedger();
        const d = await ledger.appendDispatch({
          taskId: 't',
          attempt: 3,
          provider: 'p',
          status: 'running',
          startedAt: 1,
          agentProcess: recorded,
        });
        const started = Date.now();
        const ended = await endStaleAgentGroups(ledger, 't', { logger: silentLogger, onEvent: () => {}, graceMs: 300 });
        expect(ended).toEqual([{ dispatchId: d.id, attempt: 3, pid: agent.pid, signal: 'SIGKILL', gone: true }]);
        expect(Date.now() - started).toBeGreaterThanOrEqual(300);
        expect(liveGroupMembers(recorded)).toEqual([]);
        expect((await ledger.getDispatch(d.id))?.result).toContain('ended it with SIGKILL');
      } finally {
        try {
          process.kill(-agent.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  );
});
