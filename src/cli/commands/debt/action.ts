import { BatonError } from '../../../errors/index.js';
import type { TechDebtData } from '../../../ledger/index.js';
import { type CliIO, type CommonOptions, EXIT_OK, withCliLedger, parseChoice, parsePositiveInt, printResult } from '../../context.js';

export interface DebtAddOptions extends CommonOptions {
  category?: string;
  description?: string;
  impact?: string;
  solution?: string;
  task?: string;
  severity?: string;
}

const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;

export async function runDebtAdd(io: CliIO, title: string, options: DebtAddOptions): Promise<number> {
  const severity = parseChoice(options.severity ?? 'medium', SEVERITIES, '--severity');
  if (!title.trim()) throw new BatonError('INPUT_INVALID', 'The tech debt title is empty', { details: { field: 'title' } });
  return withCliLedger(io, options, async (ledger) => {
    const record = await ledger.createRecord<TechDebtData>('debt', {
      status: 'open',
      taskId: options.task,
      data: {
        title: title.trim(),
        category: options.category,
        description: options.description,
        impact: options.impact,
        proposedSolution: options.solution,
        severity,
      },
    });
    printResult(io, options, record, () => `Recorded tech debt ${record.id}: ${record.data.title}`);
    return EXIT_OK;
  });
}

export async function runDebtList(
  io: CliIO,
  options: CommonOptions & { status: string; task?: string; limit: string; cursor?: string },
): Promise<number> {
  return withCliLedger(io, options, async (ledger) => {
    const page = await ledger.listRecords<TechDebtData>('debt', {
      status: options.status === 'all' ? undefined : options.status,
      taskId: options.task,
      limit: parsePositiveInt(options.limit, '--limit'),
      cursor: options.cursor,
    });
    printResult(io, options, page, () => {
      if (page.items.length === 0) return 'No tech debt.';
      const rows = page.items.map((r) => {
        const task = r.taskId ? ` [task ${r.taskId}]` : '';
        const impact = r.data.impact ? ` — ${r.data.impact}` : '';
        return `${r.id}  ${(r.status ?? '').padEnd(8)} ${r.data.severity ?? ''} ${r.data.title}${task}${impact}`;
      });
      if (page.nextCursor) rows.push(`(more: --cursor ${page.nextCursor})`);
      return rows.join('\n');
    });
    return EXIT_OK;
  });
}
