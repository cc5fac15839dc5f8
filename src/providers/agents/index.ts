import type { AgentCliType } from '../types.js';
import { claudeSpec } from './claude.js';
import { codexSpec } from './codex.js';
import { copilotSpec } from './copilot.js';
import { cursorSpec } from './cursor.js';
import { geminiSpec } from './gemini.js';
import type { AgentCliSpec } from './types.js';

/** How Baton drives each known agent CLI. */
export const AGENT_CLI_SPECS: Readonly<Record<AgentCliType, AgentCliSpec>> = {
  gemini: geminiSpec,
  copilot: copilotSpec,
  cursor: cursorSpec,
  codex: codexSpec,
  claude: claudeSpec,
};
