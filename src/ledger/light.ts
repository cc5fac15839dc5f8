// The light face of ledger/: the agent-session records that `baton status`, `refresh` and the
// session import read, without the ledger's option schemas (zod), which index.ts also names.
// index.ts re-exports it all; refresh/light.ts says why a module has a second face.
export {
  agentSessionId,
  endAgentSession,
  getAgentSession,
  isEmptyAgentSession,
  listAgentSessions,
  recordAgentSessionTurn,
  upsertAgentSession,
} from './agent-sessions.js';
export type {
  AgentClient,
  AgentSessionClient,
  AgentSessionData,
  AgentSessionFailure,
  AgentSessionRecord,
  AgentSessionSource,
} from './agent-sessions.js';
export { HANDOFF_AUDIT_STATUS, listHandoffs } from './handoff-audit.js';
export type { HandoffAuditData, HandoffAuditRecord } from './handoff-audit.js';
// Opening a ledger loads its option schema (zod) only when options are checked (open-ledger.ts):
// the hooks open theirs through here.
export { openLedger } from './open-ledger.js';
export type { OpenLedgerOptions } from './open-ledger.js';
