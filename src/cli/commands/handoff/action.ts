import { spawn } from 'node:child_process';
import { BatonError } from '../../../errors/index.js';
import { type AgentSessionRecord, HANDOFF_AUDIT_STATUS, type HandoffAuditData, type Ledger } from '../../../ledger/index.js';
import {
  buildHandoff,
  HANDOFF_TARGETS,
  type HandoffTarget,
  handoffArgv,
  readHandoffSession,
  workspaceGitLines,
  workspaceState,
} from '../../../sessions/index.js';
import { type CliIO, type CommonOptions, EXIT_OK, parseChoice, withCliLedger, parsePositiveInt, printResult } from '../../context.js';
import { findSession, importAndList, SESSION_CLIENT_NAMES, waitForHookFolds } from '../sessions/workspace-sessions.js';

export interface HandoffCliOptions extends CommonOptions {
  from?: string;
  to?: string;
  budget: string;
  print?: boolean;
}

export async function runHandoff(io: CliIO, options: HandoffCliOptions): Promise<number> {
  const budget = parsePositiveInt(options.budget, '--budget');
  // The workspace's git state (a child process) runs beside the ledger's open and the import.
  const gitLines = workspaceGitLines(io.cwd);
  await waitForHookFolds(io);
  return withCliLedger(io, options, async (ledger) => {
    const { workspace, sessions } = await importAndList(io, ledger, undefined);
    const source = pickSource(sessions, options.from);
    const target = pickTarget(options.to, source.data.client);
    const file = source.data.transcript?.file;
    if (!file)
      throw new BatonError('INPUT_INVALID', `session ${source.id} has no transcript Baton can read (recorded by hooks only)`, {
        details: { field: '--from', value: source.id },
      });
    const [{ session, facts }, state] = await Promise.all([
      readHandoffSession(ledger, source),
      workspaceState(
        io.cwd,
        source,
        sessions.filter((s) => s !== source),
        gitLines,
      ),
    ]);
    const handoff = await buildHandoff({ session, ...(facts ? { facts } : {}), target, budget, workspaceState: state });
    const interactive = io.isTTY && !options.print && !options.json;
    const argv = handoffArgv(target, handoff.text, interactive);
    await recordHandoff(ledger, {
      workspace,
      from: source.id,
      fromClient: source.data.client,
      to: target,
      tokens: handoff.tokens,
      budget,
      started: !options.print && !options.json,
      text: handoff.text,
    });
    if (options.print || options.json) {
      printResult(
        io,
        options,
        { from: source.id, to: target, budget, tokens: handoff.tokens, command: [target, ...argv.slice(0, -1)], text: handoff.text },
        () => handoff.text,
      );
      return EXIT_OK;
    }
    io.stderr(`baton: handing ${source.id} to ${target} (${handoff.tokens} tokens)\n`);
    return startTarget(io, target, argv);
  });
}

function pickSource(sessions: readonly AgentSessionRecord[], from: string | undefined): AgentSessionRecord {
  const withTranscript = sessions.filter((s) => s.data.transcript !== undefined);
  if (from !== undefined && (SESSION_CLIENT_NAMES as readonly string[]).includes(from)) {
    const newest = withTranscript.find((s) => s.data.client === from);
    if (newest) return newest;
    throw new BatonError('INPUT_INVALID', `no ${from} session of this workspace was found (baton sessions lists them)`, {
      details: { field: '--from', value: from },
    });
  }
  if (from !== undefined) return findSession(sessions, from);
  const newest = withTranscript[0];
  if (newest) return newest;
  throw new BatonError('INPUT_INVALID', 'no agent CLI session of this workspace was found to hand off (baton sessions lists them)', {
    details: { field: '--from' },
  });
}

function pickTarget(to: string | undefined, from: string): HandoffTarget {
  if (to === undefined) return from === 'claude' ? 'codex' : 'claude';
  return parseChoice(to, HANDOFF_TARGETS, '--to');
}

/**
 * The audit record of the handoff (when, from which session and client, to which client, how big,
 * printed or started, and its text, masked by the ledger's write) that `baton ui` shows.
 */
async function recordHandoff(ledger: Ledger, data: Omit<HandoffAuditData, 'at'>): Promise<void> {
  await ledger.createRecord<HandoffAuditData>('audit', { status: HANDOFF_AUDIT_STATUS, data: { at: Date.now(), ...data } });
}

/** Starts the target CLI on the terminal (stdio inherited); its exit code is the command's. */
function startTarget(io: CliIO, target: HandoffTarget, argv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(target, argv, { cwd: io.cwd, env: io.env, stdio: 'inherit' });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BatonError(
          'INPUT_INVALID',
          error.code === 'ENOENT'
            ? `${target} is not installed (not on PATH); --print prints the handoff instead`
            : `${target} could not start: ${error.message}`,
          {
            details: { field: '--to', value: target },
          },
        ),
      ),
    );
    child.on('close', (code) => resolve(code ?? 1));
  });
}
