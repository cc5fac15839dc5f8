import { BatonError } from '../../../errors/index.js';
// The light faces: `baton status` and `refresh` import through here, and the sessions' index
// loads the context renderer, the handoff and the tokenizer.
import type { Ledger } from '../../../ledger/index.js';
import { type AgentSessionRecord, isEmptyAgentSession, listAgentSessions } from '../../../ledger/light.js';
import { findBatonWorkspace, waitForHookJobs } from '../../../hooks/light.js';
import { importSessions, type ImportSessionsResult, sessionWorkspaceOf } from '../../../sessions/light.js';
import { type CliIO, parseChoice } from '../../context.js';

export const SESSION_CLIENT_NAMES = ['claude', 'codex', 'gemini', 'copilot', 'opencode'] as const;

/** @default 5 s: how long a command that reads sessions waits for the folds the last hooks handed off. */
const HOOK_FOLDS_WAIT_MS = 5_000;

/**
 * A Stop or SessionEnd hook hands its fold to a detached child and exits (hooks/hook-jobs.ts), so
 * a command run the moment the agent CLI exits (`claude -p …; baton handoff`) could read the session
 * without its last turn, or find the ledger locked by that fold: the commands that read sessions
 * wait for those folds before they open the ledger (at most HOOK_FOLDS_WAIT_MS), and say so.
 */
export async function waitForHookFolds(io: CliIO): Promise<void> {
  const workspace = findBatonWorkspace(io.cwd);
  if (!workspace) return;
  await waitForHookJobs(workspace, io.env, HOOK_FOLDS_WAIT_MS, (live) =>
    io.stderr(`waiting for ${live} hook fold${live === 1 ? '' : 's'} of the last agent session (at most ${HOOK_FOLDS_WAIT_MS / 1000} s)\n`),
  );
}

/**
 * Imports what is new in the client stores, then lists the workspace's sessions that did
 * something, newest activity first. `supervised`: also the tries `baton run` ran with the hooks
 * linking them (their records hold no turn of their own: their task's attempt does), which
 * `baton sessions` marks with their task and try.
 */
export async function importAndList(
  io: CliIO,
  ledger: Ledger,
  client: string | undefined,
  options: { supervised?: boolean } = {},
): Promise<{ workspace: string; imported: ImportSessionsResult; sessions: AgentSessionRecord[] }> {
  if (client !== undefined) parseChoice(client, SESSION_CLIENT_NAMES, '--client');
  const { workspace, roots } = await sessionWorkspaceOf(io.cwd);
  const imported = await importSessions(ledger, { cwd: io.cwd, workspace, roots, env: io.env });
  const supervised = options.supervised === true;
  const all = await listAgentSessions(ledger, {
    workspace,
    limit: 500,
    scan: 5000,
    includeSupervised: supervised,
    includeEmpty: supervised,
  });
  const sessions = all
    .filter((r) => (supervised && r.data.supervised !== undefined) || !isEmptyAgentSession(r))
    .filter((r) => client === undefined || r.data.client === client)
    .sort((a, b) => b.data.lastActivityAt - a.data.lastActivityAt);
  return { workspace, imported, sessions };
}

/** A session by its ledger id (`claude-<id>`), its client session id, or a unique prefix of either. */
export function findSession(sessions: readonly AgentSessionRecord[], id: string): AgentSessionRecord {
  const exact = sessions.find((r) => r.id === id || r.data.clientSessionId === id);
  if (exact) return exact;
  const matches = sessions.filter((r) => r.id.startsWith(id) || r.data.clientSessionId.startsWith(id));
  if (matches.length === 1) return matches[0] as AgentSessionRecord;
  throw new BatonError(
    'INPUT_INVALID',
    matches.length === 0
      ? `no session of this workspace has the id ${JSON.stringify(id)} (baton sessions lists them)`
      : `the id ${JSON.stringify(id)} names ${matches.length} sessions: ${matches.map((r) => r.id).join(', ')}`,
    { details: { field: 'id', value: id } },
  );
}

/**
 * Imports what is new in the agent CLIs' stores before a command reads the ledger's sessions
 * (`baton status`, `baton refresh`), so a session whose hooks never ran (a Codex session whose hooks
 * were not trusted, a Copilot CLI session) is read like a hook-recorded one. Best effort: a
 * read-only ledger or an unreadable store leaves the command as it was.
 */
export async function importBeforeReading(io: CliIO, ledger: Ledger): Promise<void> {
  try {
    const { workspace, roots } = await sessionWorkspaceOf(io.cwd);
    await importSessions(ledger, { cwd: io.cwd, workspace, roots, env: io.env });
  } catch {
    // The command reads what the ledger already holds.
  }
}
