/**
 * The working directory and git root Copilot CLI's older layout (`session-state/<id>.jsonl`,
 * December 2025) records: its `session.start` names none (the newer layout's `data.context.cwd`),
 * but each turn's `system.message` carries an `<environment_context>` block with
 * `* Current working directory: …` and `* Git repository root: …` lines (seen in the shared
 * fixtures, SOURCES.md). Pure; undefined fields when the text names none.
 */
export function copilotEnvironment(text: string): { cwd?: string; gitRoot?: string } {
  if (!text.includes('<environment_context>')) return {};
  const cwd = /^\* Current working directory: (.+?)\s*$/m.exec(text)?.[1];
  const gitRoot = /^\* Git repository root: (.+?)\s*$/m.exec(text)?.[1];
  return { ...(cwd ? { cwd } : {}), ...(gitRoot ? { gitRoot } : {}) };
}
