import { gatherStatus, renderStatus } from './gather-status.js';
import { type CliIO, type CommonOptions, EXIT_OK, openCliLedger, printResult } from '../../context.js';

export async function runStatus(io: CliIO, options: CommonOptions & { limit: number }): Promise<number> {
  const ledger = await openCliLedger(io, options, { readOnly: true });
  try {
    const status = await gatherStatus(ledger, { dispatchLimit: options.limit, now: Date.now() });
    printResult(io, options, status, () => renderStatus(status));
    return EXIT_OK;
  } finally {
    await ledger.close();
  }
}
