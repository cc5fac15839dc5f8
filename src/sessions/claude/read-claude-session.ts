import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ParsedFile, parseJsonlFile } from '../parse-jsonl-file.js';
import type { ReadSessionOptions } from '../types.js';
import { createClaudeParser } from './create-claude-parser.js';

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
