export { buildAgentMessages } from './build-agent-messages.js';

export { renderPanelPrompt } from './call-baton-provider.js';

export { withDuplicatePrevention } from './duplicate-prevention.js';
export { fitPanelContext } from './fit-panel-context.js';
export { loadPanelConfig, resolvePanelConfig } from './load-panel-config.js';

export { parsePromptFile } from './parse-prompt-file.js';

export { runPanel } from './run-panel.js';

export { createPanelServer, startPanelServer } from './server/start-panel-server.js';
export type { AgentMessages, BuildAgentMessagesInput, PanelMessage } from './build-agent-messages.js';

export type { FitPanelContextInput, FitPanelContextResult } from './fit-panel-context.js';
export type { LoadPanelConfigOptions } from './load-panel-config.js';
export type { PanelSessionData } from './panel-ledger.js';

export type { AgentStartEvent, RunPanelOptions } from './run-panel.js';

export type { PanelServerOptions, RunningPanelServer } from './server/start-panel-server.js';
export type * from './types.js';
