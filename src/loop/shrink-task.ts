import type { TokenCounter } from '../tokens/index.js';
import { shrinkLarge } from './shrink-large.js';

/** A run of lines of the task: a paragraph, a fenced block, or a tagged or commented region. */
interface TaskBlock {
  text: string;
  /** Instructions or template (tagged regions, headings, lists) rather than the user's own words. */
  template: boolean;
  keep: boolean;
}

const LIST_LINE = /^\s*(?:[-*+]|\d+[.)])\s|^\s*\|/;
/** Lines from which a list outside any heading counts as instructions. */
const LONG_LIST_LINES = 8;
const HEADING = /^\s{0,3}#{1,6}\s/;
const OPEN_TAG = /^\s*<([A-Za-z][\w-]*)(?:\s[^>]*)?>\s*$/;
const OPEN_COMMENT = /^\s*<!--\s*([\w:-]+)-start\s*-->/;

/**
 * The task cut to `maxTokens` with its boilerplate shrunk before the user's own request: the first
 * `headChars` characters always stay; then the request's words (the paragraphs that end the task
 * after its last instruction block, neither lists nor under a heading: the ask after an AGENTS.md) are kept, and the instructions (tagged
 * regions such as `<environment_context>` or `<user_instructions>`, `<!-- x-start -->` regions,
 * headings with their lists, long lists) fill what room is left in order. Each omitted run
 * becomes one marker line. Recognised by structure, not by any client's wording. Pure.
 */
export function shrinkTask(task: string, maxTokens: number, counter: TokenCounter, headChars: number): string {
  const blocks = splitAtHead(segmentTask(task), headChars);
  // Only a task whose instructions come before a request of the user's own is re-arranged; any
  // other is cut at its tail as before (its head is the request).
  const lastTemplate = blocks.findLastIndex((b) => b.template);
  if (lastTemplate < 0 || lastTemplate === blocks.length - 1 || task.length - blocks.at(-1)!.text.length < headChars) {
    return shrinkLarge(task, maxTokens, 'trim-tail', counter, counter.count(task));
  }
  const sizes = blocks.map((b) => counter.count(b.text) + 2);
  const marker = (n: number) => `[... ${n} lines of instructions omitted ...]`;
  let left = maxTokens - 16;
  let offset = 0;
  for (const [i, b] of blocks.entries()) {
    if (offset < headChars) {
      b.keep = true;
      left -= sizes[i] as number;
    }
    offset += b.text.length + 1;
  }
  const take = (i: number) => {
    const b = blocks[i] as TaskBlock;
    const size = sizes[i] as number;
    if (b.keep || size > left - 12) return;
    b.keep = true;
    left -= size;
  };
  // The request is the run of the user's own paragraphs that ends the task (the ask after an
  // AGENTS.md or a template); paragraphs between instruction sections belong to the instructions.
  for (let i = blocks.length - 1; i >= 0 && !(blocks[i] as TaskBlock).template; i -= 1) take(i);
  for (let i = 0; i < blocks.length; i += 1) take(i);
  const out: string[] = [];
  let omitted = 0;
  for (const b of blocks) {
    if (b.keep) {
      if (omitted > 0) out.push(marker(omitted));
      omitted = 0;
      out.push(b.text);
    } else omitted += b.text.split('\n').length;
  }
  if (omitted > 0) out.push(marker(omitted));
  const text = out.join('\n\n');
  const tokens = counter.count(text);
  return tokens <= maxTokens ? text : shrinkLarge(text, maxTokens, 'head-tail', counter, tokens);
}

/** The block that runs past the head's last character split at the next line end, so the head stays small. Pure. */
function splitAtHead(blocks: TaskBlock[], headChars: number): TaskBlock[] {
  let offset = 0;
  for (const [i, b] of blocks.entries()) {
    const end = offset + b.text.length;
    if (end > headChars && offset < headChars) {
      const cut = b.text.indexOf('\n', headChars - offset);
      if (cut < 0) return blocks;
      const head = { ...b, text: b.text.slice(0, cut) };
      const rest = { ...b, text: b.text.slice(cut + 1) };
      return [...blocks.slice(0, i), head, rest, ...blocks.slice(i + 1)];
    }
    offset = end + 1;
  }
  return blocks;
}

/** Splits the task into blocks at blank lines, keeping fenced blocks and tagged or commented regions whole. Pure. */
function segmentTask(task: string): TaskBlock[] {
  const lines = task.split('\n');
  const blocks: TaskBlock[] = [];
  let current: string[] = [];
  let close: RegExp | undefined;
  let region = false;
  let section = false;
  const flush = () => {
    if (current.length === 0) return;
    const listy = current.filter((l) => LIST_LINE.test(l)).length * 2 >= current.length;
    const heading = HEADING.test(current[0] ?? '');
    // Under a heading, paragraphs are the instructions' own; a region's end closes the section.
    if (heading) section = true;
    // A short list outside any section is the request's own steps; a long one is instructions.
    const longList = listy && current.length > LONG_LIST_LINES;
    blocks.push({ text: current.join('\n'), template: region || heading || section || longList, keep: false });
    current = [];
    region = false;
  };
  for (const line of lines) {
    if (close) {
      current.push(line);
      if (close.test(line)) {
        close = undefined;
        flush();
        section = false;
      }
      continue;
    }
    const tag = OPEN_TAG.exec(line);
    const comment = OPEN_COMMENT.exec(line);
    if (tag || comment) {
      flush();
      region = true;
      close = tag ? new RegExp(`</${tag[1]}>\\s*$`) : new RegExp(`<!--\\s*${comment?.[1] ?? ''}-end\\s*-->`);
      current.push(line);
      continue;
    }
    if (/^\s*```/.test(line)) {
      const fence = current.length > 0 && current.some((l) => /^\s*```/.test(l));
      current.push(line);
      if (fence) flush();
      continue;
    }
    if (line.trim() === '' && !current.some((l) => /^\s*```/.test(l))) flush();
    else current.push(line);
  }
  flush();
  return blocks;
}
