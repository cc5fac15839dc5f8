import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LedgerLine, MemoryLedger, materializeDispatch, materializeTask } from '../../src/ledger/index.js';

/** A real temporary git repository with one commit. */
export function makeRepo(files: Record<string, string> = { 'README.md': '# demo\n' }): {
  dir: string;
  git: (...args: string[]) => string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-refresh-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'Test');
  git('config', 'commit.gpgsign', 'false');
  writeFiles(dir, files);
  git('add', '-A');
  git('commit', '-qm', 'initial commit');
  return { dir, git, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-refresh-plain-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A ledger of `tasks` tasks and `dispatches` dispatches with long texts, filled through
 * importLines so 100,000 dispatches take a moment, not minutes.
 */
export async function bigLedger(tasks = 10_000, dispatches = 100_000, now = Date.now()): Promise<MemoryLedger> {
  const ledger = new MemoryLedger(() => now);
  const lines: LedgerLine[] = [];
  const statuses = ['pending', 'in_progress', 'completed', 'blocked'] as const;
  for (let i = 0; i < tasks; i += 1) {
    lines.push({
      kind: 'task',
      record: materializeTask(
        {
          id: `t${i}`,
          title: `Task ${i}: implement part ${i} of the billing pipeline`,
          instructions: `Implement step ${i}. `.repeat(40),
          intent: `Customers need part ${i}.`,
          status: statuses[i % 4],
          priority: i % 7,
          dependsOn: i > 0 ? [`t${i - 1}`] : [],
          acceptanceCriteria: [{ description: `part ${i} tests pass`, check: `npm test -- part${i}` }],
        },
        now - (tasks - i) * 1000,
      ),
    });
  }
  for (let j = 0; j < dispatches; j += 1) {
    lines.push({
      kind: 'dispatch',
      record: materializeDispatch(
        {
          id: `d${j}`,
          taskId: `t${j % tasks}`,
          attempt: Math.floor(j / tasks) + 1,
          provider: j % 2 ? 'claude' : 'gemini',
          status: j % 3 === 0 ? 'failed' : 'completed',
          outcome: j % 3 === 0 ? 'validation_failed' : 'ok',
          result: `Result of dispatch ${j}: `.padEnd(600, 'x'),
          validationErrors: j % 3 === 0 ? [`criterion ${j} failed: expected 1, got 2`] : [],
          filesUpdated: [`src/part${j % 50}.ts`],
          startedAt: now - (dispatches - j) * 10,
        },
        j + 1,
        now - (dispatches - j) * 10,
      ),
    });
  }
  for (let k = 0; k < 200; k += 1) {
    lines.push({
      kind: 'record',
      collection: 'debt',
      record: {
        id: `debt${k}`,
        status: 'open',
        taskId: `t${k}`,
        createdAt: now,
        updatedAt: now - k,
        data: {
          title: `Known issue ${k}`,
          impact: 'slows the build '.repeat(10),
          severity: k % 2 ? 'high' : 'low',
          description: 'x'.repeat(500),
        },
      },
    });
  }
  await ledger.importLines(lines);
  return ledger;
}

/** Untyped JSON read back from a rendered context or a tool result, for assertions only. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary tool output; typing every format here would duplicate the renderer.
export type Loose = any;
