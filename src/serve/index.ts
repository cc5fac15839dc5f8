export { DEFAULT_MAX_BODY_BYTES, handlePanelRequest } from './handle-panel-request.js';
export { panelRequestSchema } from './panel-request-schema.js';
export { createPanelServer, DEFAULT_SERVE_HOST, DEFAULT_SERVE_PORT, startPanelServer } from './start-panel-server.js';
export type { PanelRequestContext } from './handle-panel-request.js';
export type { PanelRequest } from './panel-request-schema.js';
export type { PanelServerOptions, RunningPanelServer } from './start-panel-server.js';
