/** @default 10: ms of request work one event-loop turn may start before the rest waits a turn. */
export const DEFAULT_TURN_BUDGET_MS = 10;

/**
 * Bounds how much request work one event-loop turn runs, so a burst of requests (100 clients
 * calling at once, or every session waiting on one cold render released together) is handled in
 * slices with timers, I/O and other clients in between, instead of as one long turn.
 *
 * A turn's slice opens at its first `take()` and closes at the end of the turn (a `setImmediate`
 * fires after the poll phase that delivered the burst). While the slice is under `budgetMs`,
 * `take()` lets the caller run now; past it, or while others already wait, the caller waits and is
 * let through one per later turn, in arrival order. Each request's own work between two awaits is
 * small (a cache hit is about a millisecond), so a turn stays near the budget.
 */
export class TurnBudget {
  private sliceStart: number | undefined;
  private readonly waiting: Array<() => void> = [];
  private draining = false;
  /** Callers that had to wait for a later turn (for tests and load reports). */
  deferred = 0;

  constructor(
    private readonly budgetMs = DEFAULT_TURN_BUDGET_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Resolves at once while this turn has budget left, else on a later turn. Never rejects. */
  take(): Promise<void> {
    const now = this.now();
    if (this.sliceStart === undefined) {
      this.sliceStart = now;
      setImmediate(() => {
        this.sliceStart = undefined;
      });
    }
    if (this.waiting.length === 0 && now - this.sliceStart < this.budgetMs) return Promise.resolve();
    this.deferred += 1;
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.drain();
    });
  }

  /** Lets one waiter through per turn: its work runs in that turn's microtasks, then timers get theirs. */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    const next = () => {
      const resolve = this.waiting.shift();
      if (!resolve) {
        this.draining = false;
        return;
      }
      this.sliceStart = this.now();
      resolve();
      setImmediate(next);
    };
    setImmediate(next);
  }
}
