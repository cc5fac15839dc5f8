import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import type { JournalEntry } from './types.js';

/** @default 16 KiB: one journal line at most (a line is one write, so concurrent appends never interleave). */
export const MAX_JOURNAL_LINE = 16 * 1024;

/**
 * Appends one entry to a session's journal: one `write` on a file opened with O_APPEND, so hooks
 * the client runs at once (parallel tool calls) add whole lines. Creates the folder on first use.
 */
export function appendJournal(file: string, dir: string, entry: JournalEntry): void {
  let line = `${JSON.stringify(entry)}\n`;
  if (Buffer.byteLength(line) > MAX_JOURNAL_LINE) line = `${JSON.stringify(shrink(entry))}\n`;
  let fd: number;
  try {
    fd = openSync(file, 'a');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true });
    fd = openSync(file, 'a');
  }
  try {
    writeSync(fd, line);
  } finally {
    closeSync(fd);
  }
}

/**
 * The entries written after `fromByte`, and the byte offset they end at. A last line without its
 * newline (a write in progress) is left for the next read; a line that does not parse is skipped.
 */
export function readJournal(file: string, fromByte: number): { entries: JournalEntry[]; endByte: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], endByte: fromByte };
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= fromByte) return { entries: [], endByte: Math.min(fromByte, size) };
    const buffer = Buffer.alloc(size - fromByte);
    readSync(fd, buffer, 0, buffer.length, fromByte);
    const lastNewline = buffer.lastIndexOf(0x0a);
    if (lastNewline < 0) return { entries: [], endByte: fromByte };
    const entries: JournalEntry[] = [];
    for (const line of buffer.subarray(0, lastNewline).toString('utf8').split('\n')) {
      const entry = parseLine(line);
      if (entry) entries.push(entry);
    }
    return { entries, endByte: fromByte + lastNewline + 1 };
  } finally {
    closeSync(fd);
  }
}

function parseLine(line: string): JournalEntry | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value = JSON.parse(line) as JournalEntry;
    return typeof value === 'object' && value !== null && typeof value.kind === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** An entry whose text fields are cut so its line fits MAX_JOURNAL_LINE. */
function shrink(entry: JournalEntry): JournalEntry {
  const cut = (text: string | undefined, max: number) => (text === undefined || text.length <= max ? text : `${text.slice(0, max)}…`);
  switch (entry.kind) {
    case 'tool':
      return { ...entry, command: cut(entry.command, 2000), error: cut(entry.error, 2000), paths: entry.paths?.slice(0, 20) };
    case 'prompt':
      return { ...entry, prompt: cut(entry.prompt, 4000) ?? '' };
    case 'reply':
      return { ...entry, reply: cut(entry.reply, 4000) ?? '' };
    case 'compact':
      return entry;
  }
}
