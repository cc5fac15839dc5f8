// Each schema of config-schema tied to the interface it mirrors: a key or type added to one alone fails the
// build. Apart from the schema file so that neither imports the other's module (no cycle).
import type { SchemaFor } from '../util/index.js';
import type { LoadConfigOptions } from './load-config.js';
import type { loadConfigOptionsSchema } from './config-schema.js';

export const LOAD_CONFIG_OPTIONS_MATCH: SchemaFor<LoadConfigOptions, typeof loadConfigOptionsSchema> = true;
