import { loadConfig } from '../../../config/index.js';
import type { PanelConfig } from '../../../panel/index.js';
import { createProviders, type Provider } from '../../../providers/index.js';

/**
 * The Baton providers a panel's `{"provider":"baton"}` agents name, built from baton.config.json
 * (`file`, else .baton/baton.config.json, else built-in defaults). Empty when no agent needs one,
 * so HTTP-only panels never read the Baton config.
 */
export async function loadPanelProviders(
  config: PanelConfig,
  options: { cwd: string; env: NodeJS.ProcessEnv; file?: string },
): Promise<Record<string, Provider>> {
  if (!config.agents.some((agent) => agent.model.provider === 'baton')) return {};
  const baton = await loadConfig({ cwd: options.cwd, env: options.env, ...(options.file === undefined ? {} : { file: options.file }) });
  return createProviders(baton);
}
