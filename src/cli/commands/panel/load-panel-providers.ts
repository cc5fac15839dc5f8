import path from 'node:path';
import { loadConfig } from '../../../config/index.js';
import { BatonError } from '../../../errors/index.js';
import { loadPanelConfig, type PanelConfig } from '../../../panel/index.js';
import { createProviders, type Provider } from '../../../providers/index.js';
import { DEFAULT_SUMMARY_CACHE_DIR, DiskSummaryCache, MemorySummaryCache } from '../../../summarize/index.js';
import { type CliIO, type CommonOptions, openCliLedger } from '../../context.js';

/**
 * Loads the panel file (--config, required), the Baton providers its agents name, the ledger and
 * the on-disk summary cache. Here --config names the panel file; the Baton config (for its
 * providers and `ledger`) is --providers-config.
 */
export async function openPanelCommand(io: CliIO, command: string, options: CommonOptions & { providersConfig?: string }) {
  if (!options.config) {
    throw new BatonError('INPUT_INVALID', `baton ${command} needs the panel file: --config panel.json`, { details: { field: '--config' } });
  }
  const config = await loadPanelConfig(options.config, { cwd: io.cwd, env: io.env });
  const providers = await loadPanelProviders(config, { cwd: io.cwd, env: io.env, file: options.providersConfig });
  const ledger = await openCliLedger(io, { ledger: options.ledger, config: options.providersConfig });
  const summaryCache = new MemorySummaryCache({ backing: new DiskSummaryCache(path.join(io.cwd, DEFAULT_SUMMARY_CACHE_DIR)) });
  return { config, providers, ledger, summaryCache };
}

/**
 * The Baton providers a panel's `{"provider":"baton"}` agents name, built from baton.config.json
 * (`file`, else .baton/baton.config.json, else built-in defaults). Empty when no agent needs one,
 * so HTTP-only panels never read the Baton config.
 */
async function loadPanelProviders(
  config: PanelConfig,
  options: { cwd: string; env: NodeJS.ProcessEnv; file?: string },
): Promise<Record<string, Provider>> {
  if (!config.agents.some((agent) => agent.model.provider === 'baton')) return {};
  const baton = await loadConfig({ cwd: options.cwd, env: options.env, ...(options.file === undefined ? {} : { file: options.file }) });
  return createProviders(baton);
}
