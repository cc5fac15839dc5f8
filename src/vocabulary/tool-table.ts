import * as describers from './describe-args.js';
import { type Described, firstLineOf, keyed, type ToolArgs } from './describe-args.js';
import type { ToolKind } from './types.js';

export type { ToolArgs } from './describe-args.js';

/** One entry of the table: the kind, and how to read the call's arguments. */
export interface ToolEntry {
  kind: ToolKind;
  /** Which agents name a tool so (documentation and tests). */
  clients: readonly string[];
  describe: (args: ToolArgs, name: string) => Described;
}

const CLAUDE = 'claude';
const CODEX = 'codex';
const GEMINI = 'gemini';
const COPILOT = 'copilot';
const OPENHANDS = 'openhands';
const SWE = 'swe-agent';
const OPENCODE = 'opencode';

/** Baton's one table of agent tools, keyed by the tool's name in lower case. */
export const TOOL_TABLE: Readonly<Record<string, ToolEntry>> = {
  // Reads.
  read: { kind: 'read', clients: [CLAUDE, OPENHANDS], describe: describers.pathCall },
  read_file: { kind: 'read', clients: [GEMINI], describe: describers.pathCall },
  view: { kind: 'read', clients: [COPILOT], describe: describers.pathCall },
  notebookread: { kind: 'read', clients: [CLAUDE], describe: describers.pathCall },
  read_many_files: { kind: 'read', clients: [GEMINI], describe: describers.manyPaths },
  open: { kind: 'read', clients: [SWE], describe: describers.textAction },
  goto: { kind: 'read', clients: [SWE], describe: describers.textAction },
  scroll_up: { kind: 'read', clients: [SWE], describe: describers.textAction },
  scroll_down: { kind: 'read', clients: [SWE], describe: describers.textAction },
  // Edits and writes.
  edit: { kind: 'edit', clients: [CLAUDE, COPILOT, OPENHANDS, SWE], describe: describers.editCall },
  multiedit: { kind: 'edit', clients: [CLAUDE], describe: describers.multiEdit },
  notebookedit: { kind: 'edit', clients: [CLAUDE], describe: describers.notebookEdit },
  replace: { kind: 'edit', clients: [GEMINI], describe: describers.editCall },
  smart_edit: { kind: 'edit', clients: [GEMINI], describe: describers.editCall },
  edit_file: { kind: 'edit', clients: [OPENHANDS], describe: describers.editCall },
  str_replace: { kind: 'edit', clients: [COPILOT], describe: describers.editCall },
  insert: { kind: 'edit', clients: [COPILOT, SWE], describe: describers.editCall },
  str_replace_editor: { kind: 'edit', clients: [COPILOT, OPENHANDS], describe: describers.editorCall },
  str_replace_based_edit_tool: { kind: 'edit', clients: [CLAUDE], describe: describers.editorCall },
  apply_patch: { kind: 'edit', clients: [CODEX, COPILOT], describe: describers.patchCall },
  write: { kind: 'write', clients: [CLAUDE, OPENHANDS], describe: describers.writeCall },
  write_file: { kind: 'write', clients: [GEMINI], describe: describers.writeCall },
  create: { kind: 'write', clients: [COPILOT, SWE], describe: describers.writeCall },
  // Shells.
  bash: { kind: 'shell', clients: [CLAUDE, COPILOT, SWE], describe: describers.shellCall },
  powershell: { kind: 'shell', clients: [CLAUDE, COPILOT], describe: describers.shellCall },
  shell: { kind: 'shell', clients: [CODEX], describe: describers.shellCall },
  shell_command: { kind: 'shell', clients: [CODEX], describe: describers.shellCall },
  exec_command: { kind: 'shell', clients: [CODEX], describe: describers.shellCall },
  local_shell_call: { kind: 'shell', clients: [CODEX], describe: describers.shellCall },
  container_exec: { kind: 'shell', clients: [CODEX], describe: describers.shellCall },
  run_shell_command: { kind: 'shell', clients: [GEMINI], describe: describers.shellCall },
  execute_bash: { kind: 'shell', clients: [OPENHANDS], describe: describers.shellCall },
  run: { kind: 'shell', clients: [OPENHANDS], describe: describers.shellCall },
  execute_ipython_cell: { kind: 'shell', clients: [OPENHANDS], describe: describers.codeCall },
  run_ipython: { kind: 'shell', clients: [OPENHANDS], describe: describers.codeCall },
  write_stdin: { kind: 'shell', clients: [CODEX], describe: describers.sessionInput },
  write_bash: { kind: 'shell', clients: [COPILOT], describe: describers.sessionInput },
  read_bash: { kind: 'shell', clients: [COPILOT], describe: describers.sessionInput },
  write_powershell: { kind: 'shell', clients: [COPILOT], describe: describers.sessionInput },
  read_powershell: { kind: 'shell', clients: [COPILOT], describe: describers.sessionInput },
  bashoutput: { kind: 'shell', clients: [CLAUDE], describe: describers.sessionInput },
  killshell: { kind: 'shell', clients: [CLAUDE], describe: describers.sessionInput },
  killbash: { kind: 'shell', clients: [CLAUDE], describe: describers.sessionInput },
  stop_bash: { kind: 'shell', clients: [COPILOT], describe: describers.sessionInput },
  stop_powershell: { kind: 'shell', clients: [COPILOT], describe: describers.sessionInput },
  // Searches and listings.
  glob: { kind: 'search', clients: [CLAUDE, GEMINI, COPILOT], describe: describers.searchCall },
  grep: { kind: 'search', clients: [CLAUDE, COPILOT], describe: describers.searchCall },
  search_file_content: { kind: 'search', clients: [GEMINI], describe: describers.searchCall },
  grep_search: { kind: 'search', clients: [GEMINI], describe: describers.searchCall },
  codebase_search: { kind: 'search', clients: [], describe: describers.searchCall },
  search_dir: { kind: 'search', clients: [SWE], describe: describers.textSearch },
  search_file: { kind: 'search', clients: [SWE], describe: describers.textSearch },
  find_file: { kind: 'search', clients: [SWE], describe: describers.textSearch },
  ls: { kind: 'search', clients: [CLAUDE], describe: describers.listCall },
  list_directory: { kind: 'search', clients: [GEMINI], describe: describers.listCall },
  list_dir: { kind: 'search', clients: [], describe: describers.listCall },
  // OpenCode's own names (its read, edit, write, bash, glob, grep, todowrite, webfetch, task and skill are above).
  list: { kind: 'search', clients: [OPENCODE], describe: describers.listCall },
  codesearch: { kind: 'search', clients: [OPENCODE], describe: describers.searchCall },
  // Plans.
  todowrite: { kind: 'plan', clients: [CLAUDE], describe: (a) => describers.planCall(a.todos) },
  update_plan: { kind: 'plan', clients: [CODEX], describe: (a) => describers.planCall(a.plan) },
  write_todos: { kind: 'plan', clients: [GEMINI], describe: (a) => describers.planCall(a.todos) },
  update_todo: { kind: 'plan', clients: [COPILOT], describe: (a) => describers.planCall(a.todos) },
  taskcreate: { kind: 'plan', clients: [CLAUDE], describe: describers.taskPlanCall },
  taskupdate: { kind: 'plan', clients: [CLAUDE], describe: describers.taskPlanCall },
  todoread: { kind: 'plan', clients: [CLAUDE], describe: () => ({ paths: [] }) },
  tasklist: { kind: 'plan', clients: [CLAUDE], describe: () => ({ paths: [] }) },
  exitplanmode: { kind: 'plan', clients: [CLAUDE], describe: (a) => keyed(firstLineOf(a.plan)) },
  // The web.
  webfetch: { kind: 'web', clients: [CLAUDE], describe: describers.webCall },
  websearch: { kind: 'web', clients: [CLAUDE], describe: describers.webCall },
  web_fetch: { kind: 'web', clients: [GEMINI, COPILOT], describe: describers.webCall },
  google_web_search: { kind: 'web', clients: [GEMINI], describe: describers.webCall },
  web_search: { kind: 'web', clients: [CODEX], describe: describers.webCall },
  browser: { kind: 'web', clients: [OPENHANDS], describe: describers.webCall },
  browse: { kind: 'web', clients: [OPENHANDS], describe: describers.webCall },
  web_read: { kind: 'web', clients: [OPENHANDS], describe: describers.webCall },
  // Sub-agents.
  task: { kind: 'task', clients: [CLAUDE, COPILOT], describe: describers.subAgent },
  agent: { kind: 'task', clients: [CLAUDE], describe: describers.subAgent },
  delegate_to_agent: { kind: 'task', clients: [GEMINI], describe: describers.subAgent },
  taskoutput: { kind: 'task', clients: [CLAUDE], describe: (a) => keyed(a.task_id === undefined ? undefined : String(a.task_id)) },
  // The rest, named so their key argument reads well.
  report_intent: { kind: 'other', clients: [COPILOT], describe: (a) => keyed(a.intent) },
  think: { kind: 'other', clients: [COPILOT, OPENHANDS], describe: (a) => keyed(firstLineOf(a.thought)) },
  skill: { kind: 'other', clients: [CLAUDE], describe: (a) => keyed(a.skill) },
  toolsearch: { kind: 'other', clients: [CLAUDE], describe: (a) => keyed(a.query) },
  ask_user: { kind: 'other', clients: [GEMINI], describe: describers.askUser },
  askuserquestion: { kind: 'other', clients: [CLAUDE], describe: describers.askUser },
  question: { kind: 'other', clients: [OPENCODE], describe: describers.askUser },
  submit: { kind: 'other', clients: [SWE], describe: () => ({ paths: [] }) },
  finish: { kind: 'other', clients: [OPENHANDS], describe: (a) => keyed(firstLineOf(a.message)) },
};
