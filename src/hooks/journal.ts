import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { redactValueSync } from '../redact/index.js';
import type { SessionFiles } from './hook-paths.js';
import type { JournalEntry } from './types.js';

/** @default 16 KiB: one journal line at most (a line is one write, so concurrent appends never interleave). */
export const MAX_JOURNAL_LINE = 16 * 1024;

/**
 * Appends one entry to a session's journal: one `write` on a file opened with O_APPEND, so hooks
 * the client runs at once (parallel tool calls) add whole lines. Creates the folder on first use.
 * Secrets are masked before the line is written (Baton's one redactor): a journal on disk holds
 * no command, error, prompt or reply in clear, even when no fold ever reads it.
 */
export function appendJournal(file: string, dir: string, entry: JournalEntry): void {
  const masked = redactValueSync(entry).value;
  let line = `${JSON.stringify(masked)}\n`;
  if (Buffer.byteLength(line) > MAX_JOURNAL_LINE) line = `${JSON.stringify(shrink(masked))}\n`;
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
  let whole: Buffer;
  try {
    whole = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], endByte: fromByte };
    throw error;
  }
  if (whole.length <= fromByte) return { entries: [], endByte: Math.min(fromByte, whole.length) };
  const buffer = whole.subarray(fromByte);
  const lastNewline = buffer.lastIndexOf(0x0a);
  if (lastNewline < 0) return { entries: [], endByte: fromByte };
  const entries: JournalEntry[] = [];
  for (const line of buffer.subarray(0, lastNewline).toString('utf8').split('\n')) {
    const entry = parseLine(line);
    if (entry) entries.push(entry);
  }
  return { entries, endByte: fromByte + lastNewline + 1 };
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
    case 'cut-off':
      return { ...entry, error: cut(entry.error, 200) ?? '' };
    case 'compact':
    case 'end':
      return entry;
  }
}

/** A journal taken for a fold: its batch number, its entries, and the bytes they were read from. */
export interface JournalBatch {
  /** Numbers the batch within the session: the turn's dispatch id ends with it, so a batch is written once. */
  number: number;
  file: string;
  entries: JournalEntry[];
  /** Bytes of the folding file read (the entries end there). */
  endByte: number;
}

/**
 * Takes the session's journal for a fold: a folding file a dead fold left, if any (it is folded
 * first: folds are resumable), else the journal renamed to folding file number `next`, so the
 * cheap hooks start a new journal meanwhile. `fromByte` skips what an earlier fold already wrote
 * (a state from before folds removed their journals). Undefined when there is nothing to fold.
 */
export function takeJournalBatch(files: SessionFiles, next: number, fromByte = 0): JournalBatch | undefined {
  const left = leftoverBatches(files)[0];
  if (left !== undefined) return { number: left, file: files.folding(left), ...readJournal(files.folding(left), 0) };
  const file = files.folding(next);
  try {
    renameSync(files.journal, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return { number: next, file, ...readJournal(file, fromByte) };
}

/** Whether the session's journal holds lines no fold took yet, or a fold left a batch. */
export function hasUnfolded(files: SessionFiles): boolean {
  return (statSync(files.journal, { throwIfNoEntry: false })?.size ?? 0) > 0 || leftoverBatches(files).length > 0;
}

/** The numbers of the folding files a session has (a fold in progress, or one that died), lowest first. */
export function leftoverBatches(files: SessionFiles): number[] {
  let names: string[];
  try {
    names = readdirSync(files.dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(files.foldingPrefix) && name.endsWith('.jsonl'))
    .map((name) => Number(name.slice(files.foldingPrefix.length, -'.jsonl'.length)))
    .filter((n) => Number.isSafeInteger(n) && n >= 0)
    .sort((a, b) => a - b);
}

/**
 * Ends a fold's batch once the ledger holds it: its folding file is removed. A line a cheap hook
 * appended to it after it was read (the hook opened the journal just before the rename) is moved
 * back to the journal for the next fold, never lost.
 */
export function finishJournalBatch(files: SessionFiles, batch: JournalBatch): void {
  const late = readJournal(batch.file, batch.endByte);
  for (const entry of late.entries) appendJournal(files.journal, files.dir, entry);
  rmSync(batch.file, { force: true });
}
