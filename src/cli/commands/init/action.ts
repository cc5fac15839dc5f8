import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseLedgerSpec } from '../../../ledger/index.js';
import { type CliIO, type CommonOptions, EXIT_OK, exists, openCliLedger, printResult, resolveLedgerSpec } from '../../context.js';
import { CONFIG_TEMPLATE } from './config-template.js';

export async function runInit(io: CliIO, options: CommonOptions & { force?: boolean }): Promise<number> {
  const dir = path.join(io.cwd, '.baton');
  await mkdir(dir, { recursive: true });
  const configPath = path.join(dir, 'baton.config.json');
  const configExists = await exists(configPath);
  if (!configExists || options.force) await writeFile(configPath, CONFIG_TEMPLATE);
  const ledger = await openCliLedger(io, options);
  const counts = await ledger.countTasksByStatus();
  await ledger.close();
  const spec = parseLedgerSpec((await resolveLedgerSpec(io, options)) ?? 'sqlite:.baton/agent.db', io.cwd);
  const result = {
    dir,
    ledger: spec.backend === 'sqlite' ? spec.path : ledger.location,
    backend: ledger.backend,
    config: configPath,
    configWritten: !configExists || Boolean(options.force),
    tasks: Object.values(counts).reduce((a, b) => a + b, 0),
  };
  printResult(io, options, result, () =>
    [
      `Initialized ${dir}`,
      `  ledger: ${result.backend} ${result.ledger} (${result.tasks} tasks)`,
      `  config: ${configPath}${result.configWritten ? '' : ' (kept existing; --force rewrites it)'}`,
    ].join('\n'),
  );
  return EXIT_OK;
}
