import { type FileHandle, open } from 'node:fs/promises';
import { createClaudeParser } from '../claude/create-claude-parser.js';
import { createCodexParser } from '../codex/create-codex-parser.js';
import { createCopilotParser } from '../copilot/create-copilot-parser.js';
import { parseJson } from '../is-record.js';
import { sessionMeta } from '../resume-import.js';
import type { AgentSession, ReadSessionOptions, SessionClient, SessionEvent, SessionParser, SessionResume } from '../types.js';

/** The clients whose session file is JSONL (one record a line): a window of it reads on its own. */
const PARSERS: Partial<Record<SessionClient, (file: string, options: ReadSessionOptions) => SessionParser>> = {
  claude: createClaudeParser,
  codex: createCodexParser,
  copilot: createCopilotParser,
};
/** The first tail window; the next one is sized by the events a byte held in it (at least twice as large). */
const FIRST_TAIL_BYTES = 256 * 1024;
/** The head read for the first request; grown up to HEAD_MAX_BYTES while none is found. */
const FIRST_HEAD_BYTES = 64 * 1024;
const HEAD_MAX_BYTES = 4 * 1024 * 1024;
/** Events read beyond the wanted tail: a window's oldest events may lack what came before its start. */
const TAIL_MARGIN = 20;

export interface SessionWindow {
  /** The session's first request (from the head) and the events of the tail window, in order. */
  session: AgentSession;
  /** The session's first request (the head's), when one was found in the head read. */
  first?: SessionEvent;
  /** The tail window's own events (its oldest may lack their start: use the newest `tail`). */
  tail: SessionEvent[];
  /** True when the tail window reached the file's start: `session` is the whole session. */
  whole: boolean;
  /** Bytes read from the file (head and tail windows). */
  bytesRead: number;
}

export interface SessionWindowOptions {
  /**
   * About how many events the whole file holds (the ledger's record of it: its prompts and calls),
   * when known: the first tail window is then sized for `tail` events at that density, so a long
   * session is mostly read in one window instead of a fixed first one and a larger second.
   */
  expectedEvents?: number;
}

/**
 * A JSONL session file's head (its first request) and tail (at least its newest `tail` events),
 * read without the middle: the windows grow until the tail holds `tail` events, so the cost is
 * that of the newest work, not of the session's size. Undefined for a client whose file is one
 * JSON document (Gemini CLI) or a database (OpenCode): those are read whole.
 */
export async function readSessionWindow(
  file: string,
  client: SessionClient,
  tail: number,
  options: SessionWindowOptions = {},
): Promise<SessionWindow | undefined> {
  const create = PARSERS[client];
  if (!create) return undefined;
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const head = await readHead(handle, size, (buffer) => parseLines(create(file, {}), buffer, false));
    // Codex and Copilot name the session's id and cwd in the first line only: the tail resumes with them.
    const resume: SessionResume = { meta: sessionMeta(head.session), pending: [] };
    let bytesRead = head.bytesRead;
    for (let window = firstTailWindow(size, tail + TAIL_MARGIN, options.expectedEvents); ;) {
      const from = Math.max(0, size - window);
      const buffer = await readRange(handle, from, size);
      bytesRead += buffer.length;
      const tailSession = parseLines(create(file, from === 0 ? {} : { resume }), buffer, from > 0);
      if (from === 0) return { session: tailSession, tail: tailSession.events, whole: true, bytesRead };
      if (tailSession.events.length < tail + TAIL_MARGIN) {
        window = nextWindow(window, tailSession.events.length, tail + TAIL_MARGIN);
        continue;
      }
      // A head that reaches into the tail window (a short file with a long preamble) has its first request there too.
      const inTail = head.first !== undefined && tailSession.events.some((e) => sameEvent(e, head.first as SessionEvent));
      const events = head.first && !inTail ? [head.first, ...tailSession.events] : tailSession.events;
      return {
        session: { ...tailSession, events },
        ...(head.first ? { first: head.first } : {}),
        tail: tailSession.events,
        whole: false,
        bytesRead,
      };
    }
  } finally {
    await handle.close();
  }
}

/** The head's first request: reads from the start, growing, up to `limit` (the file's size) or HEAD_MAX_BYTES. */
async function readHead(
  handle: FileHandle,
  limit: number,
  parse: (buffer: Buffer) => AgentSession,
): Promise<{ session: AgentSession; first?: SessionEvent; bytesRead: number }> {
  let bytesRead = 0;
  for (let window = FIRST_HEAD_BYTES; ; window *= 4) {
    const end = Math.min(limit, window, HEAD_MAX_BYTES);
    const buffer = await readRange(handle, 0, end);
    bytesRead += buffer.length;
    const session = parse(buffer);
    const first = session.events.find((e) => e.type === 'user');
    if (first || end >= limit || end >= HEAD_MAX_BYTES) return { session, ...(first ? { first } : {}), bytesRead };
  }
}

/** The first tail window: `wanted` events at the file's expected density and a quarter more (not under FIRST_HEAD_BYTES), else FIRST_TAIL_BYTES. */
function firstTailWindow(size: number, wanted: number, expectedEvents: number | undefined): number {
  if (expectedEvents === undefined || !(expectedEvents > 0)) return FIRST_TAIL_BYTES;
  return Math.max(FIRST_HEAD_BYTES, Math.ceil(((size * wanted) / expectedEvents) * 1.25));
}

/** The next tail window: the bytes `wanted` events take at the density seen, a quarter more, at least twice `window`. */
function nextWindow(window: number, events: number, wanted: number): number {
  const estimate = events === 0 ? window * 4 : Math.ceil(((window * wanted) / events) * 1.25);
  return Math.max(window * 2, estimate);
}

async function readRange(handle: FileHandle, from: number, to: number): Promise<Buffer> {
  const buffer = Buffer.alloc(to - from);
  let done = 0;
  while (done < buffer.length) {
    const { bytesRead } = await handle.read(buffer, done, buffer.length - done, from + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buffer.subarray(0, done);
}

/** Feeds the whole lines of `buffer` to the parser (the first one skipped when it may be cut). */
function parseLines(parser: SessionParser, buffer: Buffer, skipFirst: boolean): AgentSession {
  let from = 0;
  if (skipFirst) {
    const nl = buffer.indexOf(10);
    from = nl === -1 ? buffer.length : nl + 1;
  }
  for (let nl = buffer.indexOf(10, from); nl !== -1; nl = buffer.indexOf(10, from)) {
    const text = buffer.toString('utf8', from, nl).trim();
    from = nl + 1;
    if (text.length === 0) continue;
    parser.push(parseJson(text));
  }
  return parser.finish();
}

function sameEvent(a: SessionEvent, b: SessionEvent): boolean {
  return a.type === b.type && a.at === b.at && JSON.stringify(a) === JSON.stringify(b);
}
