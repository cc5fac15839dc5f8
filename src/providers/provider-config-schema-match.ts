// Each schema of provider-config-schema tied to the interface it mirrors: a key or type added to one alone fails the
// build. Apart from the schema file so that neither imports the other's module (no cycle).
import type { SchemaFor } from '../util/index.js';
import type { AgentCliProviderConfig, CommandProviderConfig, HttpProviderConfig, ProcessProviderOptions } from './types.js';
import type { agentCliConfigSchema, commandConfigSchema, httpConfigSchema, processOptionsSchema } from './provider-config-schema.js';

export const AGENT_CLI_CONFIG_MATCH: SchemaFor<AgentCliProviderConfig, typeof agentCliConfigSchema> = true;
export const COMMAND_CONFIG_MATCH: SchemaFor<CommandProviderConfig, typeof commandConfigSchema> = true;
export const HTTP_CONFIG_MATCH: SchemaFor<HttpProviderConfig, typeof httpConfigSchema> = true;
export const PROCESS_OPTIONS_MATCH: SchemaFor<ProcessProviderOptions, typeof processOptionsSchema> = true;
