import type { AgentSessionRecord } from '../../../ledger/index.js';
import { type CliIO, type CommonOptions, EXIT_OK, withCliLedger, printResult } from '../../context.js';
import { findSession, importAndList, waitForHookFolds } from './workspace-sessions.js';
import { renderImport, renderSession, renderSessionList, sessionRow } from './render-sessions.js';

export interface SessionsCliOptions extends CommonOptions {
  client?: string;
}

export async function runSessionsList(io: CliIO, options: SessionsCliOptions): Promise<number> {
  await waitForHookFolds(io);
  return withCliLedger(io, options, async (ledger) => {
    const { workspace, imported, sessions } = await importAndList(io, ledger, options.client, { supervised: true });
    const value = { workspace, imported: importSummary(imported), sessions: sessions.map(sessionRow) };
    printResult(io, options, value, () => renderSessionList(workspace, sessions));
    return EXIT_OK;
  });
}

export async function runSessionsShow(io: CliIO, id: string, options: SessionsCliOptions): Promise<number> {
  await waitForHookFolds(io);
  return withCliLedger(io, options, async (ledger) => {
    const { sessions } = await importAndList(io, ledger, options.client, { supervised: true });
    const record: AgentSessionRecord = findSession(sessions, id);
    printResult(io, options, { ...sessionRow(record), record: record.data }, () => renderSession(record));
    return EXIT_OK;
  });
}

export async function runSessionsImport(io: CliIO, options: SessionsCliOptions): Promise<number> {
  await waitForHookFolds(io);
  return withCliLedger(io, options, async (ledger) => {
    const { workspace, imported } = await importAndList(io, ledger, options.client, { supervised: true });
    printResult(io, options, { workspace, ...importSummary(imported) }, () => renderImport(workspace, imported));
    return EXIT_OK;
  });
}

function importSummary(result: Awaited<ReturnType<typeof importAndList>>['imported']) {
  const mbPerS = result.ms > 0 ? Math.round((result.bytes / 1e6 / (result.ms / 1000)) * 10) / 10 : undefined;
  return { ...result, ...(mbPerS === undefined ? {} : { mbPerS }) };
}
