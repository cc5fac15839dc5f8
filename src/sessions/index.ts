export { createClaudeParser } from './claude/create-claude-parser.js';
export { readClaudeSession } from './claude/read-claude-session.js';
export { clipText, DEFAULT_MAX_OUTPUT_CHARS, DEFAULT_MAX_TEXT_CHARS } from './clip-text.js';
export { DEFAULT_MAX_LINE_BYTES, readJsonLines } from './read-json-lines.js';
export { SESSION_CLIENTS } from './types.js';
export type { ReadSessionOptions } from './claude/read-claude-session.js';
export type { ParsedFile } from './parse-jsonl-file.js';
export type { JsonLine, ReadJsonLinesOptions } from './read-json-lines.js';
export type {
  AgentSession,
  ParseLimits,
  PlanItem,
  SessionClient,
  SessionEnding,
  SessionEvent,
  SessionParser,
  SessionToolCall,
  SubagentLink,
  ToolKind,
} from './types.js';
