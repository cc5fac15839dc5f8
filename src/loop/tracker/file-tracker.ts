import type { OutlineEntry } from '../processors/read-file.js';

interface FileRecord {
  path: string;
  edits: number;
  lastTurn: number;
  functions: Set<string>;
}

/**
 * Remembers which files and functions the loop modified, and the latest outline seen for each
 * file, so edits by line range can be mapped to the functions they touched. Feeds snippet ranking.
 */
export class FileTracker {
  private readonly files = new Map<string, FileRecord>();
  private readonly outlines = new Map<string, OutlineEntry[]>();

  /** Remembers the definitions last seen in a file (from a read or an edit's echo). */
  recordOutline(path: string, outline: OutlineEntry[]): void {
    if (outline.length > 0) this.outlines.set(path, outline);
  }

  /** Records an edit; with a line range, the functions overlapping it are marked modified. */
  recordEdit(path: string, turn: number, lines?: { start: number; end: number }): void {
    const record = this.files.get(path) ?? { path, edits: 0, lastTurn: turn, functions: new Set<string>() };
    record.edits += 1;
    record.lastTurn = turn;
    if (lines) {
      for (const entry of this.outlines.get(path) ?? []) {
        if (entry.startLine <= lines.end && entry.endLine >= lines.start && entry.kind !== 'class') record.functions.add(entry.name);
      }
    }
    this.files.set(path, record);
  }

  isModified(path: string): boolean {
    return this.files.has(path);
  }

  /** True when the function was edited in that file. */
  isModifiedFunction(path: string, name: string): boolean {
    return this.files.get(path)?.functions.has(name) ?? false;
  }

  /** Modified files, most recently edited first. */
  modifiedFiles(): { path: string; edits: number; functions: string[] }[] {
    return [...this.files.values()]
      .sort((a, b) => b.lastTurn - a.lastTurn)
      .map((f) => ({ path: f.path, edits: f.edits, functions: [...f.functions] }));
  }

  /**
   * The modified files, compactly, for the state section: one line per directory, most recently
   * edited first (`- src/loop/: turn.ts (2 edits; renderTurn), plan-turns.ts`); `bare` leaves out
   * the edit counts and functions (a small budget: every file named before any detail).
   */
  render(bare = false): string {
    const groups = new Map<string, string[]>();
    for (const f of this.modifiedFiles()) {
      const cut = Math.max(f.path.lastIndexOf('/'), f.path.lastIndexOf('\\')) + 1;
      const notes = bare ? [] : [...(f.edits > 1 ? [`${f.edits} edits`] : []), ...(f.functions.length ? [f.functions.join(', ')] : [])];
      const name = `${f.path.slice(cut)}${notes.length ? ` (${notes.join('; ')})` : ''}`;
      const dir = f.path.slice(0, cut);
      groups.set(dir, [...(groups.get(dir) ?? []), name]);
    }
    return [...groups].map(([dir, names]) => `- ${dir ? `${dir}: ` : ''}${names.join(', ')}`).join('\n');
  }
}
