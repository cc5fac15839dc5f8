/** The BullMQ queue that holds a plan's tasks. */
export const QUEUE_NAME = 'baton-tasks';
/**
 * How long a worker's lock on a job lasts without renewal (BATON_QUEUE_LOCK_MS). A SIGKILLed
 * worker's job is found stalled at most lock + stalled-check interval later: 15 s by default.
 * @default 10_000
 */
export const DEFAULT_QUEUE_LOCK_MS = 10_000;
/** How often workers look for stalled jobs (BATON_QUEUE_STALLED_MS). @default 5_000 */
export const DEFAULT_STALLED_INTERVAL_MS = 5_000;
/** A job whose dependencies are not completed yet comes back after this delay. @default 500 */
export const DEFAULT_GATE_DELAY_MS = 500;

/**
 * The BullMQ key prefix of a ledger namespace. The braces are a hash tag: every key of the queue
 * lands in one slot, which Redis Cluster and DragonflyDB (`--cluster_mode=emulated
 * --lock_on_hashtags`) need for BullMQ's multi-key scripts.
 */
export function queuePrefix(namespace: string): string {
  return `{baton-${namespace}}`;
}

/** A counter of stalled jobs kept beside the queue's keys (same hash tag), for `baton status`. */
export function stalledCounterKey(prefix: string): string {
  return `${prefix}:${QUEUE_NAME}:baton-stalled`;
}
