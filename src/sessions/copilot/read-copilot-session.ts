import { type ParsedFile, parseJsonlFile } from '../parse-jsonl-file.js';
import type { ReadSessionOptions } from '../types.js';
import { createCopilotParser } from './create-copilot-parser.js';

/** Reads a Copilot CLI session's event file (either layout), streaming. */
export function readCopilotSession(file: string, options: ReadSessionOptions = {}): Promise<ParsedFile> {
  return parseJsonlFile(file, createCopilotParser(file, options), options.start);
}
