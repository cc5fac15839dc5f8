import { gatherStatus, renderStatus } from './gather-status.js';
import { type CliIO, type CommonOptions, EXIT_OK, parsePositiveInt, withCliLedger, printResult, resolveLedgerSpec } from '../../context.js';
import { readQueueSection, renderQueueSection } from './queue-section.js';
import { importBeforeReading, waitForHookFolds } from '../sessions/workspace-sessions.js';

export async function runStatus(io: CliIO, options: CommonOptions & { dispatches: string }): Promise<number> {
  const dispatchLimit = parsePositiveInt(options.dispatches, '--dispatches');
  await waitForHookFolds(io);
  return withCliLedger(io, { ...options, readOnly: true }, async (ledger) => {
    await importBeforeReading(io, ledger);
    const base = await gatherStatus(ledger, { dispatchLimit });
    const queue = await readQueueSection(
      await resolveLedgerSpec(io, options),
      io.env.BATON_NAMESPACE ?? process.env.BATON_NAMESPACE ?? 'default',
    );
    const status = queue ? { ...base, queue } : base;
    printResult(io, options, status, () => (queue ? `${renderStatus(base)}\n${renderQueueSection(queue)}` : renderStatus(base)));
    return EXIT_OK;
  });
}
