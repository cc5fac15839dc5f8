import { BatonError } from '../errors/index.js';
import { RECORD_COLLECTIONS, type RecordCollection } from './types.js';

export function notFound(kind: string, id: string): BatonError {
  return new BatonError('NOT_FOUND', `No ${kind} with id "${id}"`, { details: { kind, id } });
}

export function conflict(kind: string, id: string): BatonError {
  return new BatonError('LEDGER_CONFLICT', `A ${kind} with id "${id}" already exists`, { details: { kind, id } });
}

/** Checks a record collection name before a backend uses it (in a key, a row or a map). */
export function checkCollection(collection: RecordCollection): void {
  if (!RECORD_COLLECTIONS.includes(collection)) {
    throw new BatonError('INPUT_INVALID', `Unknown record collection "${collection}": use one of ${RECORD_COLLECTIONS.join(', ')}`, {
      details: { field: 'collection', value: collection },
    });
  }
}
