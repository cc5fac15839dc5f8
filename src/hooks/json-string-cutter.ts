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
 * never split. Memory stays within MAX_CUT_CHARS plus one string's tail.
 */
export class JsonStringCutter {
  private readonly out: string[] = [];
  private outChars = 0;
  /** True once the cut text passed MAX_CUT_CHARS (the rest is dropped). */
  overflowed = false;
  private inString = false;
  /** An escape sequence read so far (it may span chunks); '' outside one. */
  private escape = '';
  private headChars = 0;
  private tail: string[] = [];
  private tailStart = 0;
  private tailChars = 0;
  private cutChars = 0;

  constructor(
    private readonly headLimit = STRING_HEAD_CHARS,
    private readonly tailLimit = STRING_TAIL_CHARS,
    private readonly maxChars = MAX_CUT_CHARS,
  ) {}

  /** Takes the next piece of the text. */
  push(chunk: string): void {
    const next = specialFinder(chunk);
    let i = 0;
    while (i < chunk.length) {
      if (this.escape !== '') {
        i = this.continueEscape(chunk, i);
        continue;
      }
      if (!this.inString) {
        const quote = chunk.indexOf('"', i);
        this.emit(chunk.slice(i, quote < 0 ? chunk.length : quote));
        if (quote < 0) return;
        this.emit('"');
        this.inString = true;
        i = quote + 1;
        continue;
      }
      const special = next(i);
      if (special > i) this.plain(chunk.slice(i, special));
      if (special === chunk.length) return;
      if (chunk[special] === '"') this.endString();
      else this.escape = '\\';
      i = special + 1;
    }
  }

  /** The cut text. */
  text(): string {
    return this.out.join('');
  }

  private continueEscape(chunk: string, i: number): number {
    const wanted = this.escape.length >= 2 && this.escape[1] === 'u' ? 6 : 2;
    const take = Math.min(wanted - this.escape.length, chunk.length - i);
    this.escape += chunk.slice(i, i + take);
    const complete = this.escape.length === (this.escape[1] === 'u' ? 6 : 2);
    if (complete) {
      this.unit(this.escape);
      this.escape = '';
    }
    return i + take;
  }

  private plain(run: string): void {
    const room = this.headLimit - this.headChars;
    if (room > 0) {
      const head = run.length <= room ? run : run.slice(0, room);
      this.emit(head);
      this.headChars += head.length;
      if (head.length === run.length) return;
      run = run.slice(room);
    }
    this.pushTail(run);
  }

  private unit(escape: string): void {
    if (this.headChars < this.headLimit) {
      this.emit(escape);
      this.headChars += 1;
    } else this.pushTail(escape);
  }

  /** Keeps the last tailLimit characters; plain runs are sliced, an escape is kept or dropped whole. */
  private pushTail(segment: string): void {
    if (segment[0] !== '\\' && segment.length >= this.tailLimit) {
      this.cutChars += this.tailChars + segment.length - this.tailLimit;
      this.tail = [segment.slice(segment.length - this.tailLimit)];
      this.tailStart = 0;
      this.tailChars = this.tailLimit;
      return;
    }
    this.tail.push(segment);
    this.tailChars += segment[0] === '\\' ? 1 : segment.length;
    while (this.tailChars > this.tailLimit) {
      const first = this.tail[this.tailStart] ?? '';
      const excess = this.tailChars - this.tailLimit;
      if (first[0] !== '\\' && first.length > excess) {
        this.tail[this.tailStart] = first.slice(excess);
        this.tailChars -= excess;
        this.cutChars += excess;
        break;
      }
      const size = first[0] === '\\' ? 1 : first.length;
      this.tailStart += 1;
      this.tailChars -= size;
      this.cutChars += size;
    }
    if (this.tailStart > 1024) {
      this.tail = this.tail.slice(this.tailStart);
      this.tailStart = 0;
    }
  }

  private endString(): void {
    if (this.cutChars > 0) this.emit(`…[${this.cutChars} characters cut]…`);
    for (let k = this.tailStart; k < this.tail.length; k += 1) this.emit(this.tail[k] ?? '');
    this.emit('"');
    this.inString = false;
    this.headChars = 0;
    this.tail = [];
    this.tailStart = 0;
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

/**
 * Finds the next `"` or `\` of a chunk from a position, remembering where each was last found,
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
