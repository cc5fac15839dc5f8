import { BatonError } from '../../errors/index.js';
import type { ParsedFile } from '../read-json-lines.js';
import type { ReadSessionOptions, SessionParser } from '../types.js';
import { createOpencodeParser } from './create-opencode-parser.js';
import { type OpencodeDb, openOpencodeDb } from './open-opencode-db.js';

/** Messages read per query: a long session is read a page at a time, never whole. */
const PAGE = 200;

interface MessageRow {
  id: string;
  time_created: number;
  data: string;
}

/**
 * Reads one OpenCode session (`DB#ses_…`, see splitOpencodeSource) from its SQLite database: the
 * session's row, then its messages a page at a time, each followed by its parts, into the
 * parser. `end` is the bytes of message and part data read (OpenCode's store has no offset to
 * resume from: a changed session is read again whole). Throws INPUT_INVALID for a source that
 * names no session and for a session the database does not hold.
 */
export async function readOpencodeSession(source: string, options: ReadSessionOptions = {}): Promise<ParsedFile> {
  const where = splitOpencodeSource(source);
  if (!where) {
    throw new BatonError('INPUT_INVALID', `not an OpenCode session (DATABASE#ses_…): ${source}`, { details: { field: 'file' } });
  }
  const db = await openOpencodeDb(where.db);
  try {
    const parser = createOpencodeParser(source, options);
    const session = db.query('SELECT * FROM session WHERE id = ?').all(where.sessionId)[0];
    if (session === undefined) {
      throw new BatonError('INPUT_INVALID', `OpenCode database ${where.db} holds no session ${where.sessionId}`, {
        details: { field: 'file', value: where.sessionId },
      });
    }
    parser.push({ table: 'session', row: session });
    const end = feedMessages(db, where.sessionId, parser);
    return { session: parser.finish(), end };
  } finally {
    db.close();
  }
}

/** Pushes every message of the session and its parts, in order; returns the bytes of data read. */
function feedMessages(db: OpencodeDb, sessionId: string, parser: SessionParser): number {
  const page = db.query(
    'SELECT id, time_created, data FROM message WHERE session_id = ? AND (time_created > ? OR (time_created = ? AND id > ?)) ' +
      'ORDER BY time_created, id LIMIT ?',
  );
  const parts = db.query('SELECT data FROM part WHERE message_id = ? ORDER BY id');
  let bytes = 0;
  let after = { time: -1, id: '' };
  for (;;) {
    const rows = page.all(sessionId, after.time, after.time, after.id, PAGE) as MessageRow[];
    for (const row of rows) {
      bytes += row.data.length;
      parser.push({ table: 'message', id: row.id, data: row.data });
      for (const part of parts.all(row.id) as { data: string }[]) {
        bytes += part.data.length;
        parser.push({ table: 'part', messageId: row.id, data: part.data });
      }
    }
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) return bytes;
    after = { time: last.time_created, id: last.id };
  }
}

/**
 * The database and session id of an OpenCode source; undefined when it names no session. OpenCode
 * (1.x) keeps every session in one SQLite database, so a session's "file" is the database and the
 * session's id joined by `#`: `~/.local/share/opencode/opencode.db#ses_…`. Discovery, the import's
 * per-file state and `baton handoff` all carry it as one string.
 */
export function splitOpencodeSource(source: string): { db: string; sessionId: string } | undefined {
  const at = source.lastIndexOf('#');
  if (at <= 0) return undefined;
  const sessionId = source.slice(at + 1);
  return /^ses_[A-Za-z0-9]+$/.test(sessionId) ? { db: source.slice(0, at), sessionId } : undefined;
}
