import { BatonError } from '../errors/index.js';
import { readClaudeSession } from './claude/read-claude-session.js';
import { createCodexParser } from './codex/create-codex-parser.js';
import { createCopilotParser } from './copilot/create-copilot-parser.js';
import { detectSessionClient } from './detect-session-client.js';
import { readGeminiSession } from './gemini/read-gemini-session.js';
import { readOpencodeSession } from './opencode/read-opencode-session.js';
import { type ParsedFile, parseJsonlFile } from './parse-jsonl-file.js';
import type { ReadSessionOptions, SessionClient, SessionParser } from './types.js';

export interface ReadSessionFileOptions extends ReadSessionOptions {
  /** The client that wrote it; detected from its place or its first record when not given. */
  client?: SessionClient;
}

/** A client whose session is one JSONL file read by its parser alone (Codex CLI, Copilot CLI). */
const jsonl =
  (create: (file: string, options: ReadSessionOptions) => SessionParser) =>
  (file: string, options: ReadSessionOptions): Promise<ParsedFile> =>
    parseJsonlFile(file, create(file, options), options.start);

const READERS: Partial<Record<SessionClient, (file: string, options: ReadSessionOptions) => Promise<ParsedFile>>> = {
  claude: readClaudeSession,
  codex: jsonl(createCodexParser),
  gemini: readGeminiSession,
  copilot: jsonl(createCopilotParser),
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
