/** What a patch changes: its files (in order, each once) and its added and removed lines. */
export interface PatchSummary {
  paths: string[];
  /** `write` when the patch creates every file it names (`*** Add File:`, or a diff from /dev/null), else `edit`. */
  kind: 'edit' | 'write';
  change: { removed: number; added: number };
}

const PATCH_FILE = /^\*\*\* (Add|Update|Delete) File: (.+?)\s*$/;
const PATCH_MOVE = /^\*\*\* Move to: (.+?)\s*$/;
const DIFF_GIT = /^diff --git a\/(\S+) b\/(\S+)/;
const DIFF_NEW = /^\+\+\+ (?:b\/)?(.+?)\s*$/;

/**
 * Reads a patch: Codex's `apply_patch` envelope (`*** Begin Patch`, `*** Add/Update/Delete File:`,
 * `*** Move to:`) or a unified diff (`diff --git a/x b/x`, `+++ b/x`). Counts the `+` and `-` lines
 * of its hunks. Pure; undefined when the text names no file.
 */
export function summarizePatch(text: string): PatchSummary | undefined {
  const paths = new Set<string>();
  const created = new Set<string>();
  let added = 0;
  let removed = 0;
  let previous = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const file = PATCH_FILE.exec(line);
    const move = PATCH_MOVE.exec(line);
    const git = DIFF_GIT.exec(line);
    const plus = line.startsWith('+++ ') ? DIFF_NEW.exec(line) : null;
    if (file?.[2]) {
      paths.add(file[2]);
      if (file[1] === 'Add') created.add(file[2]);
    } else if (move?.[1]) paths.add(move[1]);
    else if (git?.[2]) paths.add(git[2]);
    else if (plus?.[1]) {
      if (plus[1] !== '/dev/null') paths.add(plus[1]);
      if (previous.startsWith('--- /dev/null') && plus[1] !== '/dev/null') created.add(plus[1]);
    } else if (line.startsWith('+') && !line.startsWith('+++')) added += 1;
    else if (line.startsWith('-') && !line.startsWith('---')) removed += 1;
    previous = line;
  }
  if (paths.size === 0) return undefined;
  return { paths: [...paths], kind: created.size === paths.size ? 'write' : 'edit', change: { removed, added } };
}
