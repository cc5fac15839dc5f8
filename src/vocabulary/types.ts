/** What a tool call did, across Claude Code, Codex CLI, Gemini CLI, Copilot CLI, OpenHands, SWE-agent. */
export type ToolKind = 'read' | 'edit' | 'write' | 'shell' | 'search' | 'plan' | 'web' | 'task' | 'other';

/** One item of an agent's plan (TodoWrite, TaskCreate, update_plan, write_todos ...). */
export interface PlanItem {
  text: string;
  status: 'pending' | 'in_progress' | 'completed';
  /** The client's own id for the item, when it gives one (TodoWrite `id`, TaskCreate's task number). */
  id?: string;
}

/**
 * How a plan call changes the plan: `replace` sets the whole list (TodoWrite, update_plan,
 * write_todos), `add` appends items (TaskCreate), `update` changes the status of items named by id
 * (TaskUpdate; `text` is empty there).
 */
export type PlanMode = 'replace' | 'add' | 'update';

/** One call as the vocabulary reads it. */
export interface ToolDescription {
  kind: ToolKind;
  /** The key argument, short and human: a path, a command line, a pattern, a URL, a sub-agent's description. */
  key?: string;
  /** Files the call reads or changes (Edit/Write/MultiEdit/NotebookEdit paths, apply_patch paths parsed from the patch, Gemini absolute_path ...). */
  paths: string[];
  /** The shell command as one string (Codex `shell`/`exec_command` argv arrays joined the way a shell reads them; `bash -lc "..."` unwrapped). */
  command?: string;
  /** For plan tools (TodoWrite, TaskCreate/TaskUpdate, update_plan, write_todos): the items the call sets. */
  plan?: PlanItem[];
  /** How `plan` applies to the plan so far (see applyPlan). Set whenever `plan` is. */
  planMode?: PlanMode;
  /** For edits: the size of the change, for a compact form `Edit src/a.py (-3 +12 lines)`. */
  change?: { removed: number; added: number };
  /** Lines an edit targets, when the call names them (SWE-agent `edit 12:15`). */
  lines?: { start: number; end: number };
  /** True for a directory listing (LS, list_directory, `ls`): a search whose output is names. */
  listing?: boolean;
}
