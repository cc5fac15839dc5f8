// loadPromptState's options schema tied to LoadPromptStateOptions: a key or type added to one alone fails the
// build. Apart from the schema file so that neither imports the other's module (no cycle).
import type { SchemaFor } from '../util/index.js';
import type { LoadPromptStateOptions } from './load-prompt-state.js';
import type { promptStateOptionsSchema } from './prompt-input-schema.js';

export const PROMPT_STATE_OPTIONS_MATCH: SchemaFor<LoadPromptStateOptions, typeof promptStateOptionsSchema> = true;
