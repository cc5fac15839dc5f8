import type { Dispatch } from '../../src/ledger/index.js';

let seq = 0;

/** A finished dispatch with the fields the builders read; everything else defaulted. */
export function dispatch(partial: Partial<Dispatch> & Pick<Dispatch, 'attempt' | 'provider'>): Dispatch {
  seq += 1;
  return {
    id: `d${seq}`,
    seq,
    taskId: 't1',
    status: 'failed',
    filesCreated: [],
    filesUpdated: [],
    filesDeleted: [],
    validationErrors: [],
    startedAt: 1_700_000_000_000,
    ...partial,
  };
}

/** Records a logger's warnings, for the "logged warning" guarantee. */
export function warnings(): { logger: { warn: (...args: unknown[]) => void }; messages: unknown[][] } {
  const messages: unknown[][] = [];
  return { logger: { warn: (...args: unknown[]) => messages.push(args) }, messages };
}
