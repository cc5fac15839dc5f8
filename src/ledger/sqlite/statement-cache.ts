import type Database from 'better-sqlite3';
import { conflict } from '../ledger-errors.js';

/**
 * Prepares each SQL text once per connection and reuses it. Queries with optional filters have a
 * few fixed shapes, so the cache stays small while every query still runs as a prepared statement.
 */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  /** The statement in raw mode: rows come back as arrays in column order. */
  raw(sql: string): Database.Statement {
    return this.cached(`raw:${sql}`, () => this.db.prepare(sql).raw(true));
  }

  get(sql: string): Database.Statement {
    return this.cached(sql, () => this.db.prepare(sql));
  }

  private cached(key: string, prepare: () => Database.Statement): Database.Statement {
    let statement = this.statements.get(key);
    if (!statement) {
      statement = prepare();
      this.statements.set(key, statement);
    }
    return statement;
  }
}

/** Runs an insert; a UNIQUE or PRIMARY KEY violation becomes LEDGER_CONFLICT naming `kind` and `id`. */
export function insertNew<T>(kind: string, id: string, insert: () => T): T {
  try {
    return insert();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw conflict(kind, id);
    throw error;
  }
}
