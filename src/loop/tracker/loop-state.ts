import { FileTracker } from './file-tracker.js';

/** @default 3 */
export const DEFAULT_MAX_ERRORS = 3;
/** @default 5 */
export const DEFAULT_MAX_DECISIONS = 5;
const MAX_ERROR_CHARS = 300;

const DECISION =
  /\b(the (issue|problem|bug|error|cause|fix) (is|was|seems|appears|lies)|root cause|decid|instead of|we should|i should|we need to|i need to|the solution|the fix)\b/i;
const MIN_DECISION_CHARS = 25;
const MAX_DECISION_CHARS = 240;

/**
 * Picks sentences from a model turn that state a finding or a decision ("the issue is ...",
 * "we should ..."). Deterministic and offline; the wording rules are the whole model. Pure.
 */
export function extractDecisions(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, ' ');
  const out: string[] = [];
  for (const raw of prose.split(/(?<=[.!?])\s+|\n+/)) {
    const sentence = raw.replace(/\s+/g, ' ').trim();
    if (sentence.length < MIN_DECISION_CHARS || !DECISION.test(sentence)) continue;
    out.push(sentence.length > MAX_DECISION_CHARS ? `${sentence.slice(0, MAX_DECISION_CHARS)}…` : sentence);
  }
  return out;
}

/**
 * The concise, continuously updated state of the loop: where it is, the modified files (compactly,
 * by directory), the recent failures and the key decisions. Rendered as the always-included state section.
 */
export class LoopState {
  readonly files = new FileTracker();
  turns = 0;
  lastAction = '';
  private errors: { turn: number; line: string }[] = [];
  private errorLines: { turn: number; line: string }[] = [];
  private decisions: string[] = [];

  /** The telling lines of failed calls (the newest DEFAULT_MAX_ERRORS kept). */
  recordErrors(turn: number, lines: readonly string[]): void {
    this.errors = keepNewest(this.errors, turn, lines, DEFAULT_MAX_ERRORS);
  }

  /** Error lines of what ran (shells, edits), failed or not: the newest two kept, apart from the failures. */
  recordErrorLines(turn: number, lines: readonly string[]): void {
    this.errorLines = keepNewest(this.errorLines, turn, lines, 2);
  }

  recordDecisions(sentences: readonly string[]): void {
    for (const s of sentences) {
      this.decisions = this.decisions.filter((d) => d !== s);
      this.decisions.push(s);
    }
    if (this.decisions.length > DEFAULT_MAX_DECISIONS) this.decisions = this.decisions.slice(-DEFAULT_MAX_DECISIONS);
  }

  /**
   * The state section's body (without header). `bare` (a state over its cap) lists the modified
   * files without their edit counts and functions, so a small budget keeps every name.
   */
  render(bare = false): string {
    const lines = [`turns so far: ${this.turns}${this.lastAction ? `; last action: ${this.lastAction}` : ''}`];
    const files = this.files.render(bare);
    if (files) lines.push('modified files:', files);
    if (this.errors.length > 0) {
      lines.push('recent failures (newest last):');
      for (const e of this.errors) lines.push(`- turn ${e.turn + 1}: ${e.line}`);
    }
    const extra = this.errorLines.filter((e) => !this.errors.some((f) => f.line === e.line));
    if (extra.length > 0) lines.push('error lines of recent commands:', ...extra.map((e) => `- turn ${e.turn + 1}: ${e.line}`));
    if (this.decisions.length > 0) lines.push('key decisions:', ...this.decisions.map((d) => `- ${d}`));
    return lines.join('\n');
  }
}

function keepNewest(list: readonly { turn: number; line: string }[], turn: number, lines: readonly string[], max: number) {
  let out = [...list];
  for (const line of lines) {
    const clipped = line.length > MAX_ERROR_CHARS ? line.slice(0, MAX_ERROR_CHARS) : line;
    out = out.filter((e) => e.line !== clipped);
    out.push({ turn, line: clipped });
  }
  return out.length > max ? out.slice(-max) : out;
}
