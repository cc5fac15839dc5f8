// Each schema of config-schema tied to the interface it mirrors: a key or type added to one alone fails the
// build. Apart from the schema file so that neither imports the other's module (no cycle).
import type { SchemaFor } from '../util/index.js';
import type { LoadConfigOptions } from './load-config.js';
import type { BreakerConfig, CommitPolicyConfig, ConfigFileFormat, PreContextConfig, TimeoutsConfig } from './types.js';
import type {
  breakerFileSchema,
  commitPolicyFileSchema,
  configFileSchema,
  loadConfigOptionsSchema,
  preContextFileSchema,
  timeoutsFileSchema,
} from './config-schema.js';

export const LOAD_CONFIG_OPTIONS_MATCH: SchemaFor<LoadConfigOptions, typeof loadConfigOptionsSchema> = true;
// The config file: its format is derived from BatonConfig (types.ts), each settings group tied on its own.
export const CONFIG_FILE_MATCH: SchemaFor<ConfigFileFormat, typeof configFileSchema> = true;
export const PRE_CONTEXT_FILE_MATCH: SchemaFor<Partial<PreContextConfig>, typeof preContextFileSchema> = true;
export const BREAKER_FILE_MATCH: SchemaFor<Partial<BreakerConfig>, typeof breakerFileSchema> = true;
export const TIMEOUTS_FILE_MATCH: SchemaFor<Partial<TimeoutsConfig>, typeof timeoutsFileSchema> = true;
export const COMMIT_POLICY_FILE_MATCH: SchemaFor<Partial<CommitPolicyConfig>, typeof commitPolicyFileSchema> = true;
