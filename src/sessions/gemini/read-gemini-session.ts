import { stat } from 'node:fs/promises';
import { type ParsedFile, parseJsonlFile } from '../parse-jsonl-file.js';
import { streamJsonDocument } from '../stream-json-document.js';
import type { ReadSessionOptions } from '../types.js';
import { createGeminiParser } from './create-gemini-parser.js';

/**
 * Reads a Gemini CLI session: a `.jsonl` chat (0.5x and later) line by line, or a `.json` chat
 * recording or `/chat save` checkpoint (one JSON document) streamed piece by piece, one message
 * at a time (streamJsonDocument). `start` applies to `.jsonl` files only; a document is re-read whole.
 */
export async function readGeminiSession(file: string, options: ReadSessionOptions = {}): Promise<ParsedFile> {
  const parser = createGeminiParser(file, options);
  if (file.endsWith('.jsonl')) return parseJsonlFile(file, parser, options.start);
  for await (const piece of streamJsonDocument(file, { arrayKeys: ['messages', 'history'] })) {
    if (piece.kind === 'item' || piece.value === undefined) parser.push(piece.value);
    else parser.push({ $set: { [piece.key]: piece.value } });
  }
  return { session: parser.finish(), end: (await stat(file)).size };
}
