/**
 * A turn held; calling it ends the turn and resolves once others can take it. `pushed`, the run
 * branch's tip this turn pushed, is handed to the next holder as its `lastPushed`.
 */
export interface EndTurn {
  (pushed?: string): Promise<void>;
  /**
   * The tip the last holder pushed, when it said: a worker whose own fetch already has it can
   * skip fetching in its turn (the push is a compare-and-swap either way).
   */
  readonly lastPushed?: string;
  /** The commits offered when the turn was taken, oldest first (as `offered`). */
  readonly offered?: readonly OfferedCommit[];
}

/** A task's passing commit, pushed to its branch, waiting for whoever integrates next to take it along. */
export interface OfferedCommit {
  taskId: string;
  attempt: number;
  sha: string;
  /** The task's check commands, run again on the merged result. */
  checks: string[];
}

/**
 * The objects a push added to a run branch, handed to the other workers so that their clones have
 * the new tip without fetching it.
 */
export interface SharedTip {
  /** The branch's tip the push built on: `pack` holds every object of `tip` that it lacks. */
  base: string;
  tip: string;
  /** A git pack (`pack-objects --stdout`); empty when it was too large to hand on (fetch it). */
  pack: Uint8Array;
  /** The worker that pushed it. */
  by: string;
}

/** What became of an offered commit: merged and pushed by a worker, or left to its own worker. */
export type IntegrationOutcome = { ok: true; by: string } | { ok: false; reason: string };

/**
 * Turns at integrating into a run branch, shared by every worker. One worker at a time fetches,
 * merges and pushes, so pushes do not refuse each other, and the one whose turn it is takes along
 * the commits others offered meanwhile: one fetch and one push for several tasks. Advisory: the
 * push is a compare-and-swap whether or not a turn was had, so a lost turn costs a retry, never a
 * wrong result.
 */
export interface IntegrationTurns {
  /** The worker taking turns through this object, named in the outcomes it settles. */
  readonly by: string;
  /** Waits for this worker's turn on `branch`. */
  take(branch: string): Promise<EndTurn>;
  /** The turn if it is free now or frees up within `waitMs`, else undefined. */
  tryTake(branch: string, waitMs?: number): Promise<EndTurn | undefined>;
  offer(branch: string, commit: OfferedCommit): Promise<void>;
  /** Commits offered on `branch`, oldest first, at most `limit`. */
  offered(branch: string, limit: number): Promise<OfferedCommit[]>;
  /** Records outcomes (for their workers to read) and withdraws the offers of `taskIds`. */
  settle(
    branch: string,
    outcomes: ReadonlyArray<{ commit: OfferedCommit; outcome: IntegrationOutcome }>,
    taskIds: readonly string[],
  ): Promise<void>;
  /** Waits until another worker settles the offered commit, or the turn is free (and then taken). */
  awaitOutcome(branch: string, taskId: string, attempt: number): Promise<{ outcome: IntegrationOutcome } | { end: EndTurn }>;
  /** Hands the objects of a tip this worker pushed to the other workers (`by` is this worker). */
  share?(branch: string, tip: Omit<SharedTip, 'by'>): Promise<void>;
  /** From now on calls `receive` with each tip the workers share on `branch`, in the order shared. */
  onShared?(branch: string, receive: (tip: SharedTip) => void): void;
  /** Lets go of what waiting for turns holds open (a connection). */
  close?(): Promise<void>;
}
