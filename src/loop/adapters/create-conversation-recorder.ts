import { BatonError } from '../../errors/index.js';
import type { ContextManager } from '../context-manager.js';
import type { LoopEvent } from '../types.js';

/** How an adapter reads its framework's messages. */
export interface ConversationFormat<M> {
  /** The adapter's name, for the error. */
  who: string;
  toEvents: (messages: readonly M[]) => LoopEvent[];
  /** Enough of a message to notice that a conversation is not the one recorded so far. */
  keyOf: (message: M) => string;
}

/**
 * Frameworks send the whole conversation on every model call (each step, each of their own
 * retries); the returned function records in `manager` only the messages after the ones already
 * recorded, so a repeat records nothing.
 *
 * @throws BatonError('INPUT_INVALID') when the messages do not continue the recorded conversation
 *   (one manager per conversation).
 */
export function createConversationRecorder<M>(manager: ContextManager, format: ConversationFormat<M>): (messages: readonly M[]) => void {
  let seen = 0;
  let lastKey = '';
  return (messages) => {
    const last = messages[seen - 1];
    if (seen > 0 && (messages.length < seen || last === undefined || format.keyOf(last) !== lastKey)) {
      throw new BatonError(
        'INPUT_INVALID',
        `${format.who}: the conversation (${messages.length} messages) does not continue the one this ContextManager recorded (${seen} messages); use one manager (and one ${format.who}) per conversation.`,
        { details: { field: 'messages', recorded: seen, received: messages.length } },
      );
    }
    if (messages.length === seen) return;
    manager.recordAll(format.toEvents(messages.slice(seen)));
    seen = messages.length;
    lastKey = format.keyOf(messages[seen - 1] as M);
  };
}
