export * from './light.js';
export { createClaudeParser } from './claude/create-claude-parser.js';
export { createCodexParser } from './codex/create-codex-parser.js';

export { createCopilotParser } from './copilot/create-copilot-parser.js';

export { createGeminiParser } from './gemini/create-gemini-parser.js';
export { createOpencodeParser } from './opencode/create-opencode-parser.js';

export { detectSessionClient } from './detect-session-client.js';
export { readClaudeSession, readGeminiSession } from './read-session-file.js';
export { readJsonLines } from './read-json-lines.js';

export type { AgentSession, SessionClient, SessionToolCall } from './types.js';
export { discoverSessionFiles } from './discover-session-files.js';

export { claudeProjectSlug, geminiProjectNames, sessionStores } from './session-stores.js';

export { buildHandoff, HANDOFF_TARGETS } from './handoff/build-handoff.js';

export { sessionLoopEvents } from './handoff/session-loop-events.js';

export type { HandoffTarget } from './handoff/build-handoff.js';
export { handoffArgv } from './handoff/handoff-argv.js';
export { workspaceGitLines, workspaceState } from './handoff/workspace-state.js';
export { readHandoffSession } from './handoff/read-handoff-session.js';
export { readSessionWindow } from './handoff/read-session-window.js';
