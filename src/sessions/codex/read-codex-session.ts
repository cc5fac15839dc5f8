import { type ParsedFile, parseJsonlFile } from '../parse-jsonl-file.js';
import type { ReadSessionOptions } from '../types.js';
import { createCodexParser } from './create-codex-parser.js';

/** Reads a Codex CLI rollout file, streaming. */
export function readCodexSession(file: string, options: ReadSessionOptions = {}): Promise<ParsedFile> {
  return parseJsonlFile(file, createCodexParser(file, options), options.start);
}
