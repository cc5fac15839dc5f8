import { BatonError } from '../errors/index.js';
import { AGENT_CLI_SPECS } from './agents/index.js';
import { createAgentCliProvider } from './cli-provider.js';
import { createCommandProvider } from './command-provider.js';
import { createHttpProvider } from './http-provider.js';
import type { ProcessProviderOptions, Provider, ProviderConfig } from './types.js';
import { checkProcessOptions, checkProviderConfig, checkProvidersConfig } from './provider-config-schema.js';

/** Builds the provider a config entry declares. */
export function createProvider(name: string, config: ProviderConfig, options: ProcessProviderOptions = {}): Provider {
  checkProviderConfig('createProvider', name, config);
  checkProcessOptions('createProvider', options);
  // checkProviderConfig refused any other type, naming it.
  if (config.type === 'command') return createCommandProvider(name, config, options);
  if (config.type === 'http') return createHttpProvider(name, config, options.now === undefined ? {} : { now: options.now });
  return createAgentCliProvider(name, config, options);
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
    const declared = own ?? (Object.hasOwn(AGENT_CLI_SPECS, name) ? ({ type: name } as ProviderConfig) : undefined);
    if (declared === undefined) {
      throw new BatonError('CONFIG_INVALID', `priority names provider "${name}", which is not declared`, {
        details: { provider: name },
      });
    }
    providers[name] = createProvider(name, declared, options);
  }
  return providers;
}
