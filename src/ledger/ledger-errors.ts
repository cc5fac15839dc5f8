import { BatonError } from '../errors/index.js';

export function notFound(kind: string, id: string): BatonError {
  return new BatonError('NOT_FOUND', `No ${kind} with id "${id}"`, { details: { kind, id } });
}

export function conflict(kind: string, id: string): BatonError {
  return new BatonError('LEDGER_CONFLICT', `A ${kind} with id "${id}" already exists`, { details: { kind, id } });
}
