import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AgentClient, type HookEvent, runHook } from '../../../src/hooks/index.js';
import { type AgentSessionRecord, type Dispatch, type Ledger, openLedger } from '../../../src/ledger/index.js';

/** A project as a user has it: a git repository with one commit and Baton's `.baton/` folder. */
export interface HookWorkspace {
  dir: string;
  /** Runs `baton hook EVENT --client CLIENT` in-process with the payload as its stdin; returns its stdout. */
  hook(client: AgentClient, event: HookEvent, payload: unknown, options?: { now?: number; env?: NodeJS.ProcessEnv }): Promise<string>;
  /** The additionalContext of a hook's answer, or undefined when it printed nothing. */
  context(stdout: string): string | undefined;
  write(file: string, content: string): void;
  /** Opens the workspace's ledger (the default SQLite file), runs `use`, closes it. */
  withLedger<T>(use: (ledger: Ledger) => Promise<T>): Promise<T>;
  session(id: string): Promise<AgentSessionRecord | undefined>;
  turns(id: string): Promise<Dispatch[]>;
  cleanup(): void;
}

export function makeHookWorkspace(options: { git?: boolean; baton?: boolean } = {}): HookWorkspace {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'baton-hooks-'));
  if (options.git !== false) {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'Test');
    writeFileSync(path.join(dir, 'README.md'), '# demo\n');
    writeFileSync(path.join(dir, '.gitignore'), '.baton/\n');
    git('add', '.');
    git('commit', '-q', '-m', 'initial commit');
  }
  if (options.baton !== false) mkdirSync(path.join(dir, '.baton'));
  const withLedger = async <T>(use: (ledger: Ledger) => Promise<T>): Promise<T> => {
    const ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: dir });
    try {
      return await use(ledger);
    } finally {
      await ledger.close();
    }
  };
  return {
    dir,
    hook: async (client, event, payload, hookOptions = {}) => {
      const answer = await runHook({
        client,
        event,
        stdin: JSON.stringify(payload),
        cwd: dir,
        env: hookOptions.env ?? {},
        ...(hookOptions.now === undefined ? {} : { now: () => hookOptions.now as number }),
      });
      return answer.stdout;
    },
    context: (stdout) =>
      stdout === ''
        ? undefined
        : (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext,
    write: (file, content) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), content);
    },
    withLedger,
    session: (id) => withLedger((ledger) => ledger.getRecord('agent_sessions', id) as Promise<AgentSessionRecord | undefined>),
    turns: (id) => withLedger((ledger) => ledger.lastDispatches(id, 50)),
    // A fold a bin-run Stop or SessionEnd handed to a detached child may still be writing .baton/: retried.
    cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }),
  };
}
