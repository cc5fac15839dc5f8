export * from './light.js';
export { createClaudeParser } from './claude/create-claude-parser.js';
export { readClaudeSession } from './claude/read-claude-session.js';
export { createCodexParser } from './codex/create-codex-parser.js';
export { readCodexSession } from './codex/read-codex-session.js';
export { createCopilotParser } from './copilot/create-copilot-parser.js';
export { readCopilotSession } from './copilot/read-copilot-session.js';
export { createGeminiParser } from './gemini/create-gemini-parser.js';
export { readGeminiSession } from './gemini/read-gemini-session.js';
export { createOpencodeParser } from './opencode/create-opencode-parser.js';
export { readOpencodeSession } from './opencode/read-opencode-session.js';
export { opencodeSource, splitOpencodeSource } from './opencode/opencode-source.js';
export type { OpencodeRecord } from './opencode/create-opencode-parser.js';
export type { OpencodeStore } from './opencode/discover-opencode-sessions.js';
export { DEFAULT_MAX_ITEM_CHARS, streamJsonDocument } from './stream-json-document.js';
export { clipText, DEFAULT_MAX_OUTPUT_CHARS, DEFAULT_MAX_TEXT_CHARS } from './clip-text.js';
export { clientOfHead, detectSessionClient } from './detect-session-client.js';
export { readSessionFile } from './read-session-file.js';
export { DEFAULT_MAX_LINE_BYTES, readJsonLines } from './read-json-lines.js';
export { SESSION_CLIENTS } from './types.js';
export type { ParsedFile } from './parse-jsonl-file.js';
export type { DocumentPiece, StreamJsonDocumentOptions } from './stream-json-document.js';
export type { ReadSessionFileOptions } from './read-session-file.js';
export type { JsonLine, ReadJsonLinesOptions } from './read-json-lines.js';
export type {
  AgentSession,
  ParseLimits,
  ReadSessionOptions,
  PlanItem,
  SessionClient,
  SessionEnding,
  SessionEvent,
  SessionParser,
  SessionToolCall,
  SubagentLink,
  ToolKind,
} from './types.js';
export { discoverSessionFiles } from './discover-session-files.js';
export { readHeadCwd } from './read-head-cwd.js';
export { mergeSessionData, sessionRecordData } from './session-record-data.js';
export { claudeProjectSlug, geminiProjectNames, sessionStores } from './session-stores.js';
export type { SessionFileEntry } from './discover-session-files.js';
export type { SessionImportState } from './import-sessions.js';
export type { ImportCarry } from './resume-import.js';
export type { SessionStores } from './session-stores.js';
export { buildHandoff, DEFAULT_HANDOFF_BUDGET, HANDOFF_TARGETS } from './handoff/build-handoff.js';
export { sessionFactsBlock } from './handoff/session-facts-block.js';
export { sessionLoopEvents } from './handoff/session-loop-events.js';
export { sessionOpenPlan } from './session-open-plan.js';
export type { BuildHandoffOptions, Handoff, HandoffTarget } from './handoff/build-handoff.js';
export { handoffArgv } from './handoff/handoff-argv.js';
export { workspaceState } from './handoff/workspace-state.js';
