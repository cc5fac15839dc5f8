import { FileTracker } from './file-tracker.js';

/** @default 3 */
export const DEFAULT_MAX_ERRORS = 3;
/** @default 5 */
export const DEFAULT_MAX_DECISIONS = 5;
const MAX_ERROR_CHARS = 300;

/**
 * The concise, continuously updated state of the loop: where it is, the modified files (compactly,
 * by directory), the recent failures and the key decisions. Rendered as the always-included state section.
 */
export class LoopState {
  readonly files = new FileTracker();
  turns = 0;
  lastAction = '';
  private errors: { turn: number; line: string }[] = [];
  private decisions: string[] = [];

  recordErrors(turn: number, lines: readonly string[]): void {
    for (const line of lines) {
      const clipped = line.length > MAX_ERROR_CHARS ? line.slice(0, MAX_ERROR_CHARS) : line;
      this.errors = this.errors.filter((e) => e.line !== clipped);
      this.errors.push({ turn, line: clipped });
    }
    if (this.errors.length > DEFAULT_MAX_ERRORS) this.errors = this.errors.slice(-DEFAULT_MAX_ERRORS);
  }

  recordDecisions(sentences: readonly string[]): void {
    for (const s of sentences) {
      this.decisions = this.decisions.filter((d) => d !== s);
      this.decisions.push(s);
    }
    if (this.decisions.length > DEFAULT_MAX_DECISIONS) this.decisions = this.decisions.slice(-DEFAULT_MAX_DECISIONS);
  }

  /** The state section's body (without header). */
  render(): string {
    const lines = [`turns so far: ${this.turns}${this.lastAction ? `; last action: ${this.lastAction}` : ''}`];
    const files = this.files.render();
    if (files) lines.push('modified files:', files);
    if (this.errors.length > 0) {
      lines.push('recent errors (newest last):');
      for (const e of this.errors) lines.push(`- turn ${e.turn + 1}: ${e.line}`);
    }
    if (this.decisions.length > 0) lines.push('key decisions:', ...this.decisions.map((d) => `- ${d}`));
    return lines.join('\n');
  }
}
