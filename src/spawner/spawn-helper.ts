import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CollectRequest, CollectResult, StartFailure } from './collect-output.js';
import { signalGroup, type SupervisedResult, type SuperviseHooks, type SuperviseRequest } from './supervise-process.js';

/**
 * A process starts its spawn helper at this command: a short command (`baton status`) never pays
 * for it, a run of many tasks soon does.
 */
export const HELPER_AFTER_COMMANDS = 16;

type Done = (result: CollectResult | StartFailure) => void;

/** What the helper sends back: a command's result, or the pid of a supervised process that started. */
type HelperMessage = { id: number; result: CollectResult | StartFailure | SupervisedResult } | { id: number; spawned: number };

/** A command in the helper, waiting for its answer. */
interface Pending {
  answer(result: CollectResult | StartFailure | SupervisedResult): void;
  spawned?(pid: number): void;
  /** Why it failed when the helper went away. */
  lost(message: string): void;
}

/**
 * Why: Node starts a child by forking its own process, and that fork costs the event loop time
 * in proportion to the process's memory (measured here: 1.6 ms per spawn at 52 MB resident,
 * 10 ms at 262 MB, 32 ms at 894 MB). `baton run --concurrency` and `baton worker` run about a
 * dozen git commands per task at ~150 MB, so their lanes queued behind forks. The helper is a
 * small Node process that forks the commands instead and sends back their output.
 *
 * A request carries only what it adds to the environment (EnvRequest): the helper's own is this
 * process's as the helper started, and sending the whole of it with each of hundreds of commands
 * cost both processes more than the rest of the message.
 *
 * Only the built command has it (its entry is a .js file beside this one); from the TypeScript
 * sources, or with BATON_SPAWN_HELPER=off, every command is spawned directly.
 */
export class SpawnHelper {
  private child: ChildProcess | undefined;
  private broken: boolean;
  private commands = 0;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly entry = new URL('./spawn-helper-main.js', import.meta.url),
    private readonly after = HELPER_AFTER_COMMANDS,
  ) {
    this.broken = process.env.BATON_SPAWN_HELPER === 'off' || !entry.pathname.endsWith('.js') || !existsSync(fileURLToPath(entry));
  }

  /** Hands the command to the helper; false when the caller should spawn it itself. */
  take(request: CollectRequest, done: Done): boolean {
    const pending: Pending = { answer: (result) => done(result as CollectResult | StartFailure), lost: (message) => done({ message }) };
    return this.send({ request }, pending) !== false;
  }

  /**
   * Hands a supervised process (an agent, a check) to the helper, which runs superviseProcess
   * there; false when the caller should run it itself. Aborting `hooks.signal` stops it there.
   */
  supervise(request: SuperviseRequest, hooks: SuperviseHooks, done: (result: SupervisedResult) => void): boolean {
    let id = -1;
    const abort = () => {
      try {
        this.child?.send({ id, abort: true });
      } catch {
        // The helper is gone, and the process with it (its group is stopped when the helper ends).
      }
    };
    const settle = (result: SupervisedResult) => {
      hooks.signal?.removeEventListener('abort', abort);
      done(result);
    };
    let pid: number | undefined;
    const spawned = (started: number) => {
      pid = started;
      hooks.onSpawn?.(started);
    };
    const lost = (message: string) => {
      // A helper that died (killed) could not stop the group it ran: nobody waits for it now.
      if (pid !== undefined) signalGroup(pid, 'SIGTERM');
      settle({ ...NOTHING_RAN, stderr: message, spawnError: { code: 'EHELPER', message }, durationMs: 0 });
    };
    const sent = this.send({ supervise: request }, { answer: (result) => settle(result as SupervisedResult), spawned, lost });
    if (sent === false) return false;
    id = sent;
    if (hooks.signal?.aborted) abort();
    else hooks.signal?.addEventListener('abort', abort, { once: true });
    return true;
  }

  /** Whether commands now go through the helper (for tests). */
  get active(): boolean {
    return this.child !== undefined && !this.broken;
  }

  /** The helper's pid while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Ends the helper; later commands are spawned directly. */
  stop(): void {
    const child = this.child;
    if (!child) return;
    this.fail(child, 'the spawn helper was stopped');
    child.kill();
  }

  /** Sends one command to the helper; its id, or false when the caller should run it itself. */
  private send(message: { request: CollectRequest } | { supervise: SuperviseRequest }, pending: Pending): number | false {
    this.commands += 1;
    if (this.broken || this.commands <= this.after) return false;
    const child = this.child ?? this.start();
    if (!child) return false;
    const id = this.nextId++;
    this.pending.set(id, pending);
    child.channel?.ref();
    try {
      child.send({ id, ...message });
    } catch {
      // The channel closed before the exit was seen: this command (not sent) runs directly.
      this.pending.delete(id);
      this.fail(child, 'the spawn helper exited');
      return false;
    }
    return id;
  }

  private start(): ChildProcess | undefined {
    try {
      const child = fork(fileURLToPath(this.entry), [], {
        execArgv: [],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      child.unref();
      child.on('message', (message: HelperMessage) => this.answer(message));
      child.on('exit', () => this.fail(child, 'the spawn helper exited'));
      child.on('error', (error) => this.fail(child, `the spawn helper failed: ${error.message}`));
      this.child = child;
      return child;
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  private answer(message: HelperMessage): void {
    const pending = this.pending.get(message.id);
    if ('spawned' in message) {
      try {
        pending?.spawned?.(message.spawned);
      } catch {
        // As superviseProcess: a recording failure must not leave the process unwatched.
      }
      return;
    }
    const { result } = message;
    this.pending.delete(message.id);
    if ('stdout' in result && typeof result.stdout !== 'string')
      result.stdout = Buffer.from(result.stdout.buffer, result.stdout.byteOffset, result.stdout.byteLength);
    if (this.pending.size === 0) this.child?.channel?.unref();
    pending?.answer(result);
  }

  /**
   * From now on commands are spawned directly. Commands in flight are not re-run (one may have
   * run already): each fails with `message`.
   */
  private fail(child: ChildProcess, message: string): void {
    if (this.child !== child) return;
    this.broken = true;
    this.child = undefined;
    for (const pending of this.pending.values()) pending.lost(message);
    this.pending.clear();
  }
}

const NOTHING_RAN = { stdout: '', stdoutTruncated: false, stderrTruncated: false, timedOut: false, aborted: false };
