import type { Job, Worker } from 'bullmq';
import type { Logger } from '../observability/index.js';

/**
 * A worker's agent slot is free once its task's attempt has passed validation: what is left is
 * integration (commit, fetch, merge, push; ~70 ms on a local remote, more over a network), with
 * no agent running. BullMQ takes a new job only when one finishes, so that slot would sit idle
 * for the whole integration. Here the worker takes its next job at that moment instead, through
 * BullMQ's own public `getNextJob` and `processJob` (the job gets the same lock renewal,
 * stalled-job handling, completion and failure as any other), and holds back BullMQ's own refill
 * until that job is done, so the worker never holds more jobs than it has agents for: a job it
 * took is never waiting on a busy worker while another worker is idle.
 */
export interface EarlyTaker {
  /** A job of this worker (by its BullMQ token) integrates: take the next job now, if any. */
  integrating(token: string): void;
  /** Takes no more jobs early; resolves when the one taken has finished. */
  close(): Promise<void>;
}

/** Marks the tokens of jobs taken early (BullMQ's own are `<worker id>:<n>`). */
const EARLY = ':early-';

export function takeNextEarly(worker: Worker, concurrency: number, logger: Logger): EarlyTaker {
  let closing = false;
  let taken: Promise<void> | undefined;
  let held = false;
  let count = 0;

  // While a job taken early runs, BullMQ's loop must not refill the slot that job took. At
  // concurrency 1 the loop is paused (it resumes, restarting its loop, when released); above 1
  // its concurrency is lowered by one (a raised concurrency is seen at its next job's end).
  const hold = async (): Promise<void> => {
    held = true;
    if (concurrency === 1) await worker.pause(true);
    else worker.concurrency = concurrency - 1;
  };
  const release = (): void => {
    if (!held) return;
    held = false;
    if (concurrency > 1) worker.concurrency = concurrency;
    else if (!closing) void worker.resume();
  };

  const takeOne = async (): Promise<void> => {
    const token = `${worker.id}${EARLY}${++count}`;
    let job: Job | undefined;
    try {
      job = await worker.getNextJob(token, { block: false });
    } catch (error) {
      logger.warn({ err: error }, 'could not take the next job early; it is taken when this one ends');
      return;
    }
    if (!job) return;
    await hold();
    try {
      await worker.processJob(job, token, () => false);
    } finally {
      release();
    }
  };

  return {
    integrating(token) {
      if (token.includes(EARLY)) {
        // The job taken early integrates in turn: BullMQ's loop takes the next one.
        release();
        return;
      }
      if (closing || taken) return;
      taken = takeOne().finally(() => {
        taken = undefined;
      });
    },
    async close() {
      closing = true;
      await taken;
    },
  };
}
