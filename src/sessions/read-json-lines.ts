import { createReadStream } from 'node:fs';
import { parseJson } from './is-record.js';
import type { AgentSession, SessionParser } from './types.js';

/** A line longer than this is skipped (counted), never held whole. @default 64 MiB */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface JsonLine {
  /** The parsed value, or undefined for a line that is not JSON (or too long). */
  value: unknown;
  /** Byte offset just after this line's newline: where an incremental read resumes. */
  end: number;
}

export interface ReadJsonLinesOptions {
  /** Byte offset to start at (an earlier read's `end`). @default 0 */
  start?: number;
  /** @default DEFAULT_MAX_LINE_BYTES */
  maxLineBytes?: number;
}

/**
 * Streams a JSONL file line by line from `start`, never holding more than one line (a 300 MB
 * transcript reads in constant memory). Blank lines are passed over; a line that does not parse, or
 * is longer than `maxLineBytes`, yields `value: undefined` so the caller counts it. A last line
 * without its newline is not yielded: the client may still be writing it (the next read resumes
 * there).
 */
export async function* readJsonLines(file: string, options: ReadJsonLinesOptions = {}): AsyncGenerator<JsonLine> {
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let offset = options.start ?? 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let oversized = false;
  for await (const chunk of createReadStream(file, { start: offset }) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl !== -1; nl = chunk.indexOf(10, from)) {
      const piece = chunk.subarray(from, nl);
      const tooLong = oversized || pendingBytes + piece.length > maxLine;
      const line = tooLong ? undefined : pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
      offset += pendingBytes + piece.length + 1;
      pending = [];
      pendingBytes = 0;
      oversized = false;
      from = nl + 1;
      const text = line?.toString('utf8').trim();
      if (text !== '') yield { value: text === undefined ? undefined : parseJson(text), end: offset };
    }
    const rest = chunk.subarray(from);
    if (rest.length === 0) continue;
    if (oversized || pendingBytes + rest.length > maxLine) {
      oversized = true;
      pending = [];
    } else pending.push(rest);
    pendingBytes += rest.length;
  }
}

/** A session read from a file, and the byte offset after the last whole line read. */
export interface ParsedFile {
  session: AgentSession;
  end: number;
}

/** Streams a JSONL file from `start` into a client's parser. */
export async function parseJsonlFile(file: string, parser: SessionParser, start = 0): Promise<ParsedFile> {
  let end = start;
  for await (const line of readJsonLines(file, { start })) {
    parser.push(line.value);
    end = line.end;
  }
  return { session: parser.finish(), end };
}
