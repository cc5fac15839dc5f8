import { createReadStream } from 'node:fs';

/** A member or array item bigger than this is skipped (counted), never held. @default 64 MiB */
export const DEFAULT_MAX_ITEM_CHARS = 64 * 1024 * 1024;

/** A piece of a JSON document: a root member, or an item of a streamed array (`key` '' for a root array). */
export type DocumentPiece = { kind: 'field'; key: string; value: unknown } | { kind: 'item'; key: string; value: unknown };

export interface StreamJsonDocumentOptions {
  /** Root members whose array value is streamed item by item (e.g. Gemini's `messages`). */
  arrayKeys: readonly string[];
  /** @default DEFAULT_MAX_ITEM_CHARS */
  maxItemChars?: number;
}

/**
 * Streams one JSON document (a Gemini CLI chat or checkpoint, which is a single object or array,
 * not JSONL) holding only one piece at a time: each root member is yielded as a field, except the
 * array members named in `arrayKeys` (and a root array), whose items are yielded one by one. A
 * piece that does not parse, or is bigger than `maxItemChars`, yields `value: undefined`. A
 * bracket-and-string scanner, not a full parser: it only finds where pieces start and end, and
 * JSON.parse reads each piece.
 */
export async function* streamJsonDocument(file: string, options: StreamJsonDocumentOptions): AsyncGenerator<DocumentPiece> {
  const scanner = new PieceScanner(new Set(options.arrayKeys), options.maxItemChars ?? DEFAULT_MAX_ITEM_CHARS);
  for await (const chunk of createReadStream(file, { encoding: 'utf8' }) as AsyncIterable<string>) {
    yield* scanner.feed(chunk);
  }
  yield* scanner.end();
}

type Mode = 'member' | 'pending-array' | 'items' | 'after-array';

class PieceScanner {
  private depth = 0;
  private inString = false;
  private escape = false;
  private mode: Mode = 'member';
  private itemsDepth = 0;
  private key: string | undefined;
  private pieces: string[] = [];
  private size = 0;
  private oversized = false;
  private out: DocumentPiece[] = [];

  constructor(
    private readonly arrayKeys: ReadonlySet<string>,
    private readonly maxChars: number,
  ) {}

  *feed(chunk: string): Generator<DocumentPiece> {
    let start = 0;
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === 92) this.escape = true;
        else if (c === 34) this.inString = false;
        continue;
      }
      if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) start = this.open(c, chunk, i, start);
      else if (c === 125 || c === 93) start = this.close(chunk, i, start);
      else if (c === 44) start = this.comma(chunk, i, start);
      else if (c === 58 && this.depth === 1 && this.mode === 'member' && this.key === undefined) start = this.colon(chunk, i, start);
      if (this.out.length > 0) {
        yield* this.out;
        this.out = [];
      }
    }
    this.keep(chunk.slice(start));
  }

  *end(): Generator<DocumentPiece> {
    yield* this.out;
  }

  private open(c: number, chunk: string, i: number, start: number): number {
    if (this.depth === 0 && c === 91) return this.enterItems(1, i);
    if (this.depth === 1 && this.mode === 'pending-array' && c === 91) return this.enterItems(2, i);
    this.depth += 1;
    return this.depth === 1 ? i + 1 : start;
  }

  private enterItems(depth: number, i: number): number {
    this.depth = depth;
    this.itemsDepth = depth;
    this.mode = 'items';
    this.reset();
    return i + 1;
  }

  private close(chunk: string, i: number, start: number): number {
    if (this.mode === 'items' && this.depth === this.itemsDepth) {
      this.flush(chunk.slice(start, i), 'item');
      this.depth -= 1;
      this.mode = this.depth === 0 ? 'member' : 'after-array';
      return i + 1;
    }
    if (this.depth === 1 && this.mode === 'member') this.flush(chunk.slice(start, i), 'field');
    this.depth -= 1;
    return this.depth === 0 ? i + 1 : start;
  }

  private comma(chunk: string, i: number, start: number): number {
    if (this.mode === 'items' && this.depth === this.itemsDepth) {
      this.flush(chunk.slice(start, i), 'item');
      return i + 1;
    }
    if (this.depth !== 1) return start;
    if (this.mode === 'member') this.flush(chunk.slice(start, i), 'field');
    else this.reset();
    this.mode = 'member';
    this.key = undefined;
    return i + 1;
  }

  private colon(chunk: string, i: number, start: number): number {
    const text = this.take(chunk.slice(start, i)).trim();
    try {
      this.key = JSON.parse(text) as string;
    } catch {
      this.key = '';
    }
    if (this.arrayKeys.has(this.key)) this.mode = 'pending-array';
    return i + 1;
  }

  private flush(tail: string, kind: 'item' | 'field'): void {
    const text = this.take(tail).trim();
    const oversized = this.oversized;
    this.reset();
    if (text.length === 0 && !oversized) return;
    const key = kind === 'item' && this.itemsDepth === 1 ? '' : (this.key ?? '');
    if (kind === 'field') this.key = undefined;
    let value: unknown;
    if (!oversized) {
      try {
        value = JSON.parse(text) as unknown;
      } catch {
        value = undefined;
      }
    }
    this.out.push({ kind, key, value });
  }

  private keep(text: string): void {
    if (this.oversized || text.length === 0) return;
    if (this.mode === 'pending-array' || this.mode === 'after-array' || this.depth === 0) return;
    this.size += text.length;
    if (this.size > this.maxChars) {
      this.oversized = true;
      this.pieces = [];
    } else this.pieces.push(text);
  }

  private take(tail: string): string {
    if (this.oversized) return '';
    const text = this.pieces.length === 0 ? tail : this.pieces.join('') + tail;
    if (this.size + tail.length > this.maxChars) {
      this.oversized = true;
      return '';
    }
    return text;
  }

  private reset(): void {
    this.pieces = [];
    this.size = 0;
    this.oversized = false;
  }
}
