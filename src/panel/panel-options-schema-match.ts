// Each schema of panel-options-schema tied to the interface it mirrors: a key or type added to one alone fails the
// build. Apart from the schema file so that neither imports the other's module (no cycle).
import type { SchemaFor } from '../util/index.js';
import type { RunPanelOptions } from './run-panel.js';
import type { PanelRequestContext } from './server/handle-panel-request.js';
import type { PanelServerOptions } from './server/start-panel-server.js';
import type { LoadPanelConfigOptions } from './load-panel-config.js';
import type { loadOptionsSchema, runOptionsSchema, serverContextSchema, serverOptionsSchema } from './panel-options-schema.js';

export const RUN_PANEL_OPTIONS_MATCH: SchemaFor<RunPanelOptions, typeof runOptionsSchema> = true;
export const PANEL_CONTEXT_MATCH: SchemaFor<PanelRequestContext, typeof serverContextSchema> = true;
export const PANEL_SERVER_OPTIONS_MATCH: SchemaFor<PanelServerOptions, typeof serverOptionsSchema> = true;
export const LOAD_PANEL_OPTIONS_MATCH: SchemaFor<LoadPanelConfigOptions, typeof loadOptionsSchema> = true;
