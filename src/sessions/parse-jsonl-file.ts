import { readJsonLines } from './read-json-lines.js';
import type { AgentSession, SessionParser } from './types.js';

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
