import { readFile } from 'node:fs/promises';
import { isRecord, parseJson } from '../is-record.js';
import { type ParsedFile, parseJsonlFile } from '../parse-jsonl-file.js';
import type { ReadSessionOptions } from '../types.js';
import { createGeminiParser } from './create-gemini-parser.js';

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
