import type { LoopEvent } from '../../loop/index.js';
import type { SessionFacts } from '../facts/types.js';

/**
 * One run replayed by the facts benchmark: the loop events as a user's loop records them, the
 * model calls (each the index in `events` of the assistant event it produced; its context is the
 * events before), and the facts that context should hold at each call.
 */
export interface Replay {
  id: string;
  /** Which agent made the run: a session client, or the trajectory's format. */
  client: string;
  events: LoopEvent[];
  steps: number[];
  /** `facts[k]` for the model call `steps[k]`. */
  facts: SessionFacts[];
  /** The system prompt and the task as recorded (for the share of their lines kept). */
  system?: string;
  task?: string;
}
