import { BatonError } from '../errors/index.js';
import { createAgentCliProvider } from './cli-provider.js';
import { createCommandProvider, type ProcessProviderOptions } from './command-provider.js';
import { createHttpProvider } from './http-provider.js';
import type { Provider, ProviderConfig } from './types.js';
import { checkProcessOptions, checkProviderConfig, checkProvidersConfig } from './provider-config-schema.js';

const BUILT_IN: ReadonlySet<string> = new Set(['gemini', 'copilot', 'cursor', 'codex', 'claude']);

/** Builds the provider a config entry declares. */
export function createProvider(name: string, config: ProviderConfig, options: ProcessProviderOptions = {}): Provider {
  checkProviderConfig('createProvider', name, config);
  checkProcessOptions('createProvider', options);
  switch (config.type) {
    case 'command':
      return createCommandProvider(name, config, options);
    case 'http':
      return createHttpProvider(name, config, options.now === undefined ? {} : { now: options.now });
    case 'gemini':
    case 'copilot':
    case 'cursor':
    case 'codex':
    case 'claude':
      return createAgentCliProvider(name, config, options);
    default:
      throw new BatonError('CONFIG_INVALID', `Provider "${name}" has unknown type "${(config as { type: string }).type}"`, {
        details: { provider: name },
      });
  }
}

/**
 * Every provider of a resolved config, keyed by name, in priority order first (then any other
 * declared ones, such as the helper). loadConfig already added defaults for built-in names.
 */
export function createProviders(
  // The two fields of a BatonConfig this needs, spelled out so providers/ does not import config/.
  config: { providers: Record<string, ProviderConfig>; priority: readonly string[] },
  options: ProcessProviderOptions = {},
): Record<string, Provider> {
  checkProvidersConfig(config);
  checkProcessOptions('createProviders', options);
  const names = [...new Set([...config.priority, ...Object.keys(config.providers)])];
  const providers: Record<string, Provider> = {};
  for (const name of names) {
    const own = Object.hasOwn(config.providers, name) ? config.providers[name] : undefined;
    const declared = own ?? (BUILT_IN.has(name) ? ({ type: name } as ProviderConfig) : undefined);
    if (declared === undefined) {
      throw new BatonError('CONFIG_INVALID', `priority names provider "${name}", which is not declared`, {
        details: { provider: name },
      });
    }
    providers[name] = createProvider(name, declared, options);
  }
  return providers;
}
