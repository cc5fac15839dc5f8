/*
 * The one place src/sessions/ meets the vocabulary table (src/vocabulary/, the helper "loop"'s
 * module). Until it lands this bridge fills the call's fields with the least it can know without a
 * table of its own: kind `other`, no key, no paths, no plan; the failure line is the output's last
 * non-blank line; the exit code is read from the client's own result header. When src/vocabulary/
 * lands, this file becomes re-exports of describeToolCall, pickFailureLine and exitCodeOf.
 */

/** What a tool call did (the vocabulary contract's ToolKind). */
export type ToolKind = 'read' | 'edit' | 'write' | 'shell' | 'search' | 'plan' | 'web' | 'task' | 'other';

export interface PlanItem {
  text: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export interface ToolDescription {
  kind: ToolKind;
  key?: string;
  paths: string[];
  command?: string;
  plan?: PlanItem[];
  change?: { removed: number; added: number };
}

export function describeToolCall(_name: string, _args: unknown): ToolDescription {
  return { kind: 'other', paths: [] };
}

export function pickFailureLine(output: string): string | undefined {
  const lines = output.split('\n').filter((line) => line.trim().length > 0);
  return lines.at(-1)?.trim();
}

const EXIT_PATTERN = /^(?:Exit code:?|Process exited with code)\s*(-?\d+)/im;

export function exitCodeOf(output: string, metadata?: unknown): number | undefined {
  const fromMeta = (metadata as { exit_code?: unknown } | undefined)?.exit_code;
  if (typeof fromMeta === 'number') return fromMeta;
  const match = EXIT_PATTERN.exec(output.slice(0, 400));
  return match ? Number(match[1]) : undefined;
}
