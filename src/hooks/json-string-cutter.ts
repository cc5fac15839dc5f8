/** @default 16 KiB: characters kept at the start of a long JSON string (a command, a path, a prompt). */
export const STRING_HEAD_CHARS = 16 * 1024;
/** @default 16 KiB: characters kept at its end (an error's last lines, `Exit Code: N`). */
export const STRING_TAIL_CHARS = 16 * 1024;
/** @default 8 MiB: the cut text held at most; past it the text is incomplete (and will not parse). */
export const MAX_CUT_CHARS = 8 * 1024 * 1024;

/**
 * Cuts the long strings of a JSON text while it streams in, so a hook's input is never held
 * whole: a 4.5 MB Write reaches a hook twice (Claude sends the content in `tool_input` and in
 * `tool_response`). Every string keeps its first STRING_HEAD_CHARS and last STRING_TAIL_CHARS
 * characters with `…[N characters cut]…` between them; everything else passes unchanged, so the
 * small fields (session, tool, command, error tail) parse from any body. Escape sequences are
 * never split. Memory stays within MAX_CUT_CHARS plus one string's tail (twice STRING_TAIL_CHARS at most).
 */
export class JsonStringCutter {
  private readonly out: string[] = [];
  private outChars = 0;
  /** True once the cut text passed MAX_CUT_CHARS (the rest is dropped). */
  overflowed = false;
  private inString = false;
  /** An escape sequence the last chunk ended inside of: the next chunk goes on from it. */
  private pending = '';
  /** Characters of the current string kept at its head (an escape counts as one). */
  private headChars = 0;
  /** The string's text past its head, raw: its last tailLimit characters once the string ends. */
  private tail = '';
  private tailChars = 0;
  private cutChars = 0;

  constructor(
    private readonly headLimit = STRING_HEAD_CHARS,
    private readonly tailLimit = STRING_TAIL_CHARS,
    private readonly maxChars = MAX_CUT_CHARS,
  ) {}

  /** Takes the next piece of the text. */
  push(piece: string): void {
    const chunk = this.pending + piece;
    this.pending = '';
    const next = specialFinder(chunk);
    let i = 0;
    while (i < chunk.length) {
      if (!this.inString) {
        const quote = chunk.indexOf('"', i);
        this.emit(chunk.slice(i, quote < 0 ? chunk.length : quote + 1));
        if (quote < 0) return;
        this.inString = true;
        i = quote + 1;
        continue;
      }
      // The string's text runs to its closing quote, or to the chunk's end less an escape it cuts.
      let end = next(i);
      while (end < chunk.length && chunk[end] === '\\') {
        const after = end + (chunk[end + 1] === 'u' ? 6 : 2);
        if (after > chunk.length) break;
        end = next(after);
      }
      this.content(chunk.slice(i, end));
      if (end === chunk.length) return;
      if (chunk[end] === '\\') {
        this.pending = chunk.slice(end);
        return;
      }
      this.endString();
      i = end + 1;
    }
  }

  /** The cut text. */
  text(): string {
    return this.out.join('');
  }

  private content(raw: string): void {
    const room = this.headLimit - this.headChars;
    const head = room > 0 ? afterChars(raw, room) : 0;
    this.emit(raw.slice(0, head));
    this.headChars += charsOf(raw.slice(0, head));
    this.tail += raw.slice(head);
    this.tailChars += charsOf(raw.slice(head));
    // Trimmed when twice too long, so a string of many small pieces is not copied once per piece.
    if (this.tailChars > 2 * this.tailLimit) this.trimTail();
  }

  /** Keeps the tail's last tailLimit characters (an escape is kept or dropped whole). */
  private trimTail(): void {
    const excess = this.tailChars - this.tailLimit;
    if (excess <= 0) return;
    this.tail = this.tail.slice(afterChars(this.tail, excess));
    this.tailChars = this.tailLimit;
    this.cutChars += excess;
  }

  private endString(): void {
    this.trimTail();
    if (this.cutChars > 0) this.emit(`…[${this.cutChars} characters cut]…`);
    this.emit(`${this.tail}"`);
    this.inString = false;
    this.headChars = 0;
    this.tail = '';
    this.tailChars = 0;
    this.cutChars = 0;
  }

  private emit(text: string): void {
    if (text === '' || this.overflowed) return;
    if (this.outChars + text.length > this.maxChars) {
      this.overflowed = true;
      return;
    }
    this.out.push(text);
    this.outChars += text.length;
  }
}

/** Where the escape at `at` of a JSON string's raw text ends: `\uXXXX`, or a backslash and one character. */
function escapeEnd(raw: string, at: number): number {
  return at + (raw[at + 1] === 'u' ? 6 : 2);
}

/** Characters in a JSON string's raw text (whole escapes only), an escape counting as one. */
function charsOf(raw: string): number {
  let chars = 0;
  let i = 0;
  for (let slash = raw.indexOf('\\'); slash >= 0; slash = raw.indexOf('\\', i)) {
    chars += slash - i + 1;
    i = escapeEnd(raw, slash);
  }
  return chars + raw.length - i;
}

/** Where the first `chars` characters of a JSON string's raw text end (the whole text when shorter). */
function afterChars(raw: string, chars: number): number {
  let i = 0;
  let left = chars;
  for (let slash = raw.indexOf('\\'); slash >= 0 && slash - i < left; slash = raw.indexOf('\\', i)) {
    left -= slash - i + 1;
    i = escapeEnd(raw, slash);
  }
  return Math.min(raw.length, i + left);
}

/**
 * Finds the next `"` or `\\` of a chunk from a position, remembering where each was last found,
 * so a string of many escapes is scanned once rather than once per escape.
 */
function specialFinder(chunk: string): (from: number) => number {
  let quote = -1;
  let slash = -1;
  return (from) => {
    if (quote !== chunk.length && quote < from) quote = indexOr(chunk, '"', from);
    if (slash !== chunk.length && slash < from) slash = indexOr(chunk, '\\', from);
    return Math.min(quote, slash);
  };
}

function indexOr(chunk: string, char: string, from: number): number {
  const found = chunk.indexOf(char, from);
  return found < 0 ? chunk.length : found;
}
