import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { AgentSessionData } from '../ledger/index.js';
import type { PlanItem } from '../vocabulary/index.js';
import { definedFields } from './is-record.js';
import type { AgentSession, SessionFileEntry, SessionResume } from './types.js';

/** Bytes of a file's head whose hash tells an appended file from a rewritten one. */
export const HEAD_HASH_BYTES = 4096;
/** Open calls kept for the next read at most (a session never waits on more). */
const MAX_PENDING = 50;

/** What an incremental read of a session file needs of the read before it (kept in `session_imports`). */
export interface ImportCarry {
  /** sha256 of the file's first `headBytes` bytes when it was read. */
  headHash: string;
  headBytes: number;
  resume: SessionResume;
  /** The session's whole plan so far. */
  plan: PlanItem[];
  /** The record data the lines before the offset gave (before any merge with the hooks' record). */
  imported: AgentSessionData;
}

/** The hash of a file's first `bytes` bytes (fewer when the file is shorter). */
export async function headHash(file: string, bytes: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return createHash('sha256').update(buffer.subarray(0, bytesRead)).digest('hex');
  } finally {
    await handle.close();
  }
}

/**
 * Whether a changed file may be read from its stored offset: a JSONL file that only grew (larger
 * than when read, its head's bytes the same). A file that shrank, kept its size or changed its
 * head was rewritten: it is read whole. A JSON document (Gemini's `.json`) is always read whole.
 */
export async function canAppend(entry: SessionFileEntry, offset: number, size: number, carry: ImportCarry): Promise<boolean> {
  if (!entry.file.endsWith('.jsonl') || offset <= 0) return false;
  if (entry.size <= size || entry.size < offset) return false;
  try {
    return (await headHash(entry.file, carry.headBytes)) === carry.headHash;
  } catch {
    return false;
  }
}

/** The head facts and open calls the next read from `end` resumes with. */
export function nextResume(session: AgentSession, previous: SessionResume | undefined): SessionResume {
  const resolved = new Set<string>();
  const opened: SessionResume['pending'] = [];
  for (const e of session.events) {
    if (e.type !== 'tool' || e.call.id === undefined) continue;
    if (e.call.output === undefined) opened.push({ call: { ...e.call, args: {} }, ...(e.at === undefined ? {} : { at: e.at }) });
    else resolved.add(e.call.id);
  }
  const stillOpen = (previous?.pending ?? []).filter((p) => p.call.id !== undefined && !resolved.has(p.call.id));
  return { meta: sessionMeta(session), pending: [...stillOpen, ...opened].slice(-MAX_PENDING) };
}

/** The session's head facts a read from a later offset resumes with (its defined ones). */
export function sessionMeta(session: AgentSession): SessionResume['meta'] {
  const { id, cwd, gitRoot, model, clientVersion, title, parentId } = session;
  return definedFields({ id, cwd, gitRoot, model, clientVersion, title, parentId }) as SessionResume['meta'];
}
