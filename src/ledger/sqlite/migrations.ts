import type Database from 'better-sqlite3';

/** One forward step of the schema. Steps run in order, each in its own transaction. */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/**
 * Every schema step since the first release. Append only: never edit a shipped step, because
 * databases in the field already ran it. JSON columns hold arrays and objects.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'tasks, dispatches, claims, breakers, records',
    sql: `
      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        instructions TEXT NOT NULL,
        intent TEXT NOT NULL,
        acceptance_criteria TEXT NOT NULL,
        status TEXT NOT NULL,
        priority REAL NOT NULL,
        difficulty TEXT,
        mode TEXT,
        depends_on TEXT NOT NULL,
        result_summary TEXT,
        block_reason TEXT,
        options TEXT NOT NULL,
        links TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        completed_at INTEGER
      );
      CREATE INDEX tasks_status_created ON tasks (status, created_at, id);
      CREATE INDEX tasks_created ON tasks (created_at, id);

      CREATE TABLE dispatches (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        task_id TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        provider TEXT NOT NULL,
        model TEXT,
        mode TEXT,
        status TEXT NOT NULL,
        outcome TEXT,
        exit_code INTEGER,
        files_created TEXT NOT NULL,
        files_updated TEXT NOT NULL,
        files_deleted TEXT NOT NULL,
        validation_errors TEXT NOT NULL,
        injected_context TEXT,
        context_type TEXT,
        prompt_digest TEXT,
        prompt_preview TEXT,
        result TEXT,
        tokens_in INTEGER,
        tokens_out INTEGER,
        claimed_by TEXT,
        reset_at INTEGER,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        duration_ms REAL
      );
      CREATE INDEX dispatches_task_seq ON dispatches (task_id, seq);
      CREATE INDEX dispatches_status_seq ON dispatches (status, seq);

      CREATE TABLE claims (
        task_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        lease_until INTEGER NOT NULL
      );

      CREATE TABLE breakers (
        provider TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        until INTEGER,
        failure_count INTEGER NOT NULL,
        reason TEXT,
        probe_owner TEXT,
        generation INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE records (
        collection TEXT NOT NULL,
        id TEXT NOT NULL,
        status TEXT,
        task_id TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (collection, id)
      );
      CREATE INDEX records_updated ON records (collection, updated_at, id);
      CREATE INDEX records_status ON records (collection, status, updated_at, id);
    `,
  },
  {
    version: 2,
    description: 'indexes for recent completed tasks and records by task',
    sql: `
      CREATE INDEX tasks_status_completed ON tasks (status, completed_at, id);
      CREATE INDEX records_task ON records (collection, task_id, updated_at, id);
    `,
  },
  {
    version: 3,
    description: 'dispatch signal and agent process group',
    sql: `
      ALTER TABLE dispatches ADD COLUMN signal TEXT;
      ALTER TABLE dispatches ADD COLUMN agent_process TEXT;
    `,
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * The database's schema version: 0 for an empty database, undefined when it holds tables but
 * no `schema_version` table (some other program's database). Reads only.
 */
export function readSchemaVersion(db: Database.Database): number | undefined {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  if (tables.length === 0) return 0;
  if (!tables.includes('schema_version')) return undefined;
  const version = db.prepare('SELECT max(version) FROM schema_version').pluck().get() as number | null;
  return version ?? 0;
}

/**
 * Runs every step above the database's version, up to `target` (default: all). Each step checks the
 * version again inside its own IMMEDIATE transaction, so two processes opening one new file never
 * both run a step, and a crash between steps resumes from the last finished one.
 */
export function migrateSchema(db: Database.Database, options: { target?: number; now?: () => number } = {}): number {
  const target = options.target ?? SCHEMA_VERSION;
  const now = options.now ?? Date.now;
  db.transaction(() => {
    db.exec(
      'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
  }).immediate();
  const current = db.prepare('SELECT coalesce(max(version), 0) FROM schema_version').pluck();
  const record = db.prepare('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)');
  for (const step of MIGRATIONS) {
    if (step.version > target) break;
    db.transaction(() => {
      if ((current.get() as number) >= step.version) return;
      db.exec(step.sql);
      record.run(step.version, step.description, now());
    }).immediate();
  }
  return current.get() as number;
}
