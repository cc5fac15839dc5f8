import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** A byte range read from a client's transcript, and where the file ended when read. */
export interface TranscriptRange {
  bytes: Buffer;
  /** Offset of the first byte read. */
  start: number;
  /** The file's size when read. */
  size: number;
}

/**
 * Reads up to `maxBytes` of a client's transcript (Gemini's chat, Codex's rollout) from
 * `fromByte` (a file that shrank is read from its start), or its last `maxBytes` when more was
 * written. The path comes from the client's hook input, so it may be anything: it is opened
 * without blocking (O_NONBLOCK: a FIFO with no writer would block `open` for ever) and read only
 * when it is a regular file, through the thread pool, so the hook's deadline still fires while a
 * stalled file system holds the read. Undefined when it cannot be read.
 */
export async function readTranscript(file: string, fromByte: number, maxBytes: number): Promise<TranscriptRange | undefined> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    const size = info.size;
    const start = Math.max(size < fromByte ? 0 : fromByte, size - maxBytes);
    const bytes = Buffer.alloc(Math.max(0, size - start));
    if (bytes.length > 0) await handle.read(bytes, 0, bytes.length, start);
    return { bytes, start, size };
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
