/**
 * OpenCode (1.x) keeps every session in one SQLite database, so a session's "file" is the database
 * and the session's id joined by `#`: `~/.local/share/opencode/opencode.db#ses_…`. Discovery, the
 * import's per-file state and `baton handoff` all carry it as one string.
 */
export function opencodeSource(db: string, sessionId: string): string {
  return `${db}#${sessionId}`;
}

/** The database and session id of an OpenCode source; undefined when it names no session. */
export function splitOpencodeSource(source: string): { db: string; sessionId: string } | undefined {
  const at = source.lastIndexOf('#');
  if (at <= 0) return undefined;
  const sessionId = source.slice(at + 1);
  return /^ses_[A-Za-z0-9]+$/.test(sessionId) ? { db: source.slice(0, at), sessionId } : undefined;
}
