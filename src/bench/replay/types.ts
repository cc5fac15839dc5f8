import type { LoopEvent } from '../../loop/index.js';

/** An agent run read from a trajectory file, as events plus the points where the model was called. */
export interface Trajectory {
  /** File name without directory. */
  id: string;
  format: 'swe-agent' | 'openhands';
  events: LoopEvent[];
  /** For each model call, the index in `events` of the assistant event it produced; its context is the events before. */
  steps: number[];
  /** The task message as sent. */
  task: string;
  /** Paths the final patch touches. */
  patchPaths: string[];
}
