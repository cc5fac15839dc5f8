import { BatonError } from '../../errors/index.js';
import type { Ledger } from '../ledger.js';

export interface SqliteLedgerOptions {
  create?: boolean;
  now?: () => number;
}

/** Placeholder until the SQLite backend lands. */
export async function openSqliteLedger(file: string, _options: SqliteLedgerOptions = {}): Promise<Ledger> {
  throw new BatonError('INTERNAL', `SQLite ledger not implemented yet (${file})`);
}
