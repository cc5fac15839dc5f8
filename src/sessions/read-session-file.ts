import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BatonError } from '../errors/index.js';
import { createClaudeParser } from './claude/create-claude-parser.js';
import { createCodexParser } from './codex/create-codex-parser.js';
import { createCopilotParser } from './copilot/create-copilot-parser.js';
import { detectSessionClient } from './detect-session-client.js';
import { createGeminiParser } from './gemini/create-gemini-parser.js';
import { isRecord, parseJson } from './is-record.js';
import { readOpencodeSession } from './opencode/read-opencode-session.js';
import { type ParsedFile, parseJsonlFile } from './read-json-lines.js';
import type { ReadSessionOptions, SessionClient } from './types.js';

export interface ReadSessionFileOptions extends ReadSessionOptions {
  /** The client that wrote it; detected from its place or its first record when not given. */
  client?: SessionClient;
}

/**
 * Reads a Claude Code transcript, streaming. Each linked sub-agent gets its own file's path as
 * `source` when Claude Code 2.x wrote one beside the transcript (`<session>/subagents/agent-<id>.jsonl`).
 */
export async function readClaudeSession(file: string, options: ReadSessionOptions = {}): Promise<ParsedFile> {
  const parsed = await parseJsonlFile(file, createClaudeParser(file, options), options.start);
  const folder = path.join(path.dirname(file), path.basename(file, '.jsonl'), 'subagents');
  for (const link of parsed.session.subagents) {
    const candidate = path.join(folder, `agent-${link.id}.jsonl`);
    if (link.source === undefined && existsSync(candidate)) link.source = candidate;
  }
  return parsed;
}

/**
 * Reads a Gemini CLI session: a `.jsonl` chat (0.5x and later) line by line, or a `.json` chat
 * recording or `/chat save` checkpoint, one JSON document that Gemini CLI itself holds and rewrites
 * whole, so it is parsed whole: a recording's header and messages as one `$set`, a checkpoint's
 * `Content[]` (or `history`) item by item. `start` applies to `.jsonl` files only; a document is re-read whole.
 */
export async function readGeminiSession(file: string, options: ReadSessionOptions = {}): Promise<ParsedFile> {
  const parser = createGeminiParser(file, options);
  if (file.endsWith('.jsonl')) return parseJsonlFile(file, parser, options.start);
  const bytes = await readFile(file);
  const doc = parseJson(bytes.toString('utf8'));
  if (isRecord(doc)) parser.push({ $set: doc });
  const items: unknown = isRecord(doc) ? doc.history : doc;
  if (Array.isArray(items)) for (const item of items as unknown[]) parser.push(item);
  else if (!isRecord(doc)) parser.push(doc);
  return { session: parser.finish(), end: bytes.length };
}

const READERS: Partial<Record<SessionClient, (file: string, options: ReadSessionOptions) => Promise<ParsedFile>>> = {
  claude: readClaudeSession,
  codex: (file, options) => parseJsonlFile(file, createCodexParser(file, options), options.start),
  gemini: readGeminiSession,
  copilot: (file, options) => parseJsonlFile(file, createCopilotParser(file, options), options.start),
  opencode: readOpencodeSession,
};

/**
 * Reads any agent CLI's session file into the one session shape, streaming. Throws
 * `INPUT_INVALID` when the client cannot be told or has no reader.
 *
 * @example
 * const { session } = await readSessionFile('~/.codex/sessions/2026/11/28/rollout-….jsonl');
 */
export async function readSessionFile(file: string, options: ReadSessionFileOptions = {}): Promise<ParsedFile> {
  const client = options.client ?? (await detectSessionClient(file));
  const reader = client === undefined ? undefined : READERS[client];
  if (!reader) {
    throw new BatonError(
      'INPUT_INVALID',
      `not a session file Baton can read (Claude Code, Codex CLI, Gemini CLI, Copilot CLI or OpenCode): ${file}`,
      {
        details: { field: 'file', client: client ?? 'unknown' },
      },
    );
  }
  return reader(file, options);
}
