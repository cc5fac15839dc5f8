import type Database from 'better-sqlite3';

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

/** True for a UNIQUE or PRIMARY KEY violation, which the ledger reports as LEDGER_CONFLICT. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
