// The light face of sessions/: the import that `baton status` and `baton refresh` run first, without
// the handoff (which loads the tokenizer). index.ts re-exports it all; refresh/light.ts says why a
// module has a second face.
export { workspaceRoots } from './discover-roots.js';
export { sessionWorkspace, sessionWorkspaceOf, type SessionWorkspace } from './session-workspace.js';
export { importSessions } from './import-sessions.js';
export { IMPORT_WITHIN_MS, importSessionsWithin, waitAtMost } from './import-sessions-within.js';
export type { ImportSessionsResult } from './import-sessions.js';
// The hooks' fold reads its own session's transcript (src/hooks/fold-session.ts).
export { readSessionFile } from './read-session-file.js';
export { sessionRecordData } from './session-record-data.js';
// One merge rule for a session both the hooks and a transcript gave (the import and the hooks' fold).
export { mergeSessionData } from './merge-session-data.js';
