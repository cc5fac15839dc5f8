import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CollectRequest, CollectResult, StartFailure } from './collect-output.js';

/**
 * A process starts its spawn helper at this command: a short command (`baton status`) never pays
 * for it, a run of many tasks soon does.
 */
export const HELPER_AFTER_COMMANDS = 16;

type Done = (result: CollectResult | StartFailure) => void;

/**
 * Why: Node starts a child by forking its own process, and that fork costs the event loop time
 * in proportion to the process's memory (measured here: 1.6 ms per spawn at 52 MB resident,
 * 10 ms at 262 MB, 32 ms at 894 MB). `baton run --concurrency` and `baton worker` run about a
 * dozen git commands per task at ~150 MB, so their lanes queued behind forks. The helper is a
 * small Node process that forks the commands instead and sends back their output.
 *
 * Only the built command has it (its entry is a .js file beside this one); from the TypeScript
 * sources, or with BATON_SPAWN_HELPER=off, every command is spawned directly.
 */
export class SpawnHelper {
  private child: ChildProcess | undefined;
  private broken: boolean;
  private commands = 0;
  private nextId = 0;
  private readonly pending = new Map<number, Done>();

  constructor(
    private readonly entry = new URL('./spawn-helper-main.js', import.meta.url),
    private readonly after = HELPER_AFTER_COMMANDS,
  ) {
    this.broken = process.env.BATON_SPAWN_HELPER === 'off' || !entry.pathname.endsWith('.js') || !existsSync(fileURLToPath(entry));
  }

  /** Hands the command to the helper; false when the caller should spawn it itself. */
  take(request: CollectRequest, done: Done): boolean {
    this.commands += 1;
    if (this.broken || this.commands <= this.after) return false;
    const child = this.child ?? this.start();
    if (!child) return false;
    const id = this.nextId++;
    this.pending.set(id, done);
    child.channel?.ref();
    try {
      child.send({ id, request });
    } catch {
      // The channel closed before the exit was seen: this command (not sent) runs directly.
      this.pending.delete(id);
      this.fail(child, 'the spawn helper exited');
      return false;
    }
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

  private start(): ChildProcess | undefined {
    try {
      const child = fork(fileURLToPath(this.entry), [], {
        execArgv: [],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      child.unref();
      child.on('message', (message: { id: number; result: CollectResult | StartFailure }) => this.answer(message));
      child.on('exit', () => this.fail(child, 'the spawn helper exited'));
      child.on('error', (error) => this.fail(child, `the spawn helper failed: ${error.message}`));
      this.child = child;
      return child;
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  private answer({ id, result }: { id: number; result: CollectResult | StartFailure }): void {
    const done = this.pending.get(id);
    this.pending.delete(id);
    if ('stdout' in result) result.stdout = Buffer.from(result.stdout.buffer, result.stdout.byteOffset, result.stdout.byteLength);
    if (this.pending.size === 0) this.child?.channel?.unref();
    done?.(result);
  }

  /**
   * From now on commands are spawned directly. Commands in flight are not re-run (one may have
   * run already): each fails with `message`.
   */
  private fail(child: ChildProcess, message: string): void {
    if (this.child !== child) return;
    this.broken = true;
    this.child = undefined;
    for (const done of this.pending.values()) done({ message });
    this.pending.clear();
  }
}
