import { objectWithMethods } from '../util/index.js';
import type { ContextManager } from './context-manager.js';

/** A ContextManager as the retry and the framework adapters take it (its methods, not its class). */
export const contextManagerSchema = objectWithMethods<ContextManager>(
  ['record', 'recordAll', 'assemble', 'fetchRaw'],
  'a ContextManager (from createContextManager)',
);
