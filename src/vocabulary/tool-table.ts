import * as describers from './describe-args.js';
import { type Described, firstLineOf, keyed, type ToolArgs } from './describe-args.js';
import type { ToolKind } from './types.js';

export type { ToolArgs } from './describe-args.js';

/** One entry of the table: the kind, and how to read the call's arguments. */
export interface ToolEntry {
  kind: ToolKind;
  describe: (args: ToolArgs, name: string) => Described;
}

/** Baton's one table of agent tools, keyed by the tool's name in lower case; each line names the agents whose tool it is. */
export const TOOL_TABLE: Readonly<Record<string, ToolEntry>> = {
  // Reads.
  read: { kind: 'read', describe: describers.pathCall }, // Claude, OpenHands
  read_file: { kind: 'read', describe: describers.pathCall }, // Gemini
  view: { kind: 'read', describe: describers.pathCall }, // Copilot
  notebookread: { kind: 'read', describe: describers.pathCall }, // Claude
  read_many_files: { kind: 'read', describe: describers.manyPaths }, // Gemini
  open: { kind: 'read', describe: describers.textAction }, // SWE-agent
  goto: { kind: 'read', describe: describers.textAction }, // SWE-agent
  scroll_up: { kind: 'read', describe: describers.textAction }, // SWE-agent
  scroll_down: { kind: 'read', describe: describers.textAction }, // SWE-agent
  // Edits and writes.
  edit: { kind: 'edit', describe: describers.editCall }, // Claude, Copilot, OpenHands, SWE-agent
  multiedit: { kind: 'edit', describe: describers.multiEdit }, // Claude
  notebookedit: { kind: 'edit', describe: describers.notebookEdit }, // Claude
  replace: { kind: 'edit', describe: describers.editCall }, // Gemini
  smart_edit: { kind: 'edit', describe: describers.editCall }, // Gemini
  edit_file: { kind: 'edit', describe: describers.editCall }, // OpenHands
  str_replace: { kind: 'edit', describe: describers.editCall }, // Copilot
  insert: { kind: 'edit', describe: describers.editCall }, // Copilot, SWE-agent
  str_replace_editor: { kind: 'edit', describe: describers.editorCall }, // Copilot, OpenHands
  str_replace_based_edit_tool: { kind: 'edit', describe: describers.editorCall }, // Claude
  apply_patch: { kind: 'edit', describe: describers.patchCall }, // Codex, Copilot
  write: { kind: 'write', describe: describers.writeCall }, // Claude, OpenHands
  write_file: { kind: 'write', describe: describers.writeCall }, // Gemini
  create: { kind: 'write', describe: describers.writeCall }, // Copilot, SWE-agent
  // Shells.
  bash: { kind: 'shell', describe: describers.shellCall }, // Claude, Copilot, SWE-agent
  powershell: { kind: 'shell', describe: describers.shellCall }, // Claude, Copilot
  shell: { kind: 'shell', describe: describers.shellCall }, // Codex
  shell_command: { kind: 'shell', describe: describers.shellCall }, // Codex
  exec_command: { kind: 'shell', describe: describers.shellCall }, // Codex
  local_shell_call: { kind: 'shell', describe: describers.shellCall }, // Codex
  container_exec: { kind: 'shell', describe: describers.shellCall }, // Codex
  run_shell_command: { kind: 'shell', describe: describers.shellCall }, // Gemini
  execute_bash: { kind: 'shell', describe: describers.shellCall }, // OpenHands
  run: { kind: 'shell', describe: describers.shellCall }, // OpenHands
  execute_ipython_cell: { kind: 'shell', describe: describers.codeCall }, // OpenHands
  run_ipython: { kind: 'shell', describe: describers.codeCall }, // OpenHands
  write_stdin: { kind: 'shell', describe: describers.sessionInput }, // Codex
  write_bash: { kind: 'shell', describe: describers.sessionInput }, // Copilot
  read_bash: { kind: 'shell', describe: describers.sessionInput }, // Copilot
  write_powershell: { kind: 'shell', describe: describers.sessionInput }, // Copilot
  read_powershell: { kind: 'shell', describe: describers.sessionInput }, // Copilot
  bashoutput: { kind: 'shell', describe: describers.sessionInput }, // Claude
  killshell: { kind: 'shell', describe: describers.sessionInput }, // Claude
  killbash: { kind: 'shell', describe: describers.sessionInput }, // Claude
  stop_bash: { kind: 'shell', describe: describers.sessionInput }, // Copilot
  stop_powershell: { kind: 'shell', describe: describers.sessionInput }, // Copilot
  // Searches and listings.
  glob: { kind: 'search', describe: describers.searchCall }, // Claude, Gemini, Copilot
  grep: { kind: 'search', describe: describers.searchCall }, // Claude, Copilot
  search_file_content: { kind: 'search', describe: describers.searchCall }, // Gemini
  grep_search: { kind: 'search', describe: describers.searchCall }, // Gemini
  codebase_search: { kind: 'search', describe: describers.searchCall },
  search_dir: { kind: 'search', describe: describers.textSearch }, // SWE-agent
  search_file: { kind: 'search', describe: describers.textSearch }, // SWE-agent
  find_file: { kind: 'search', describe: describers.textSearch }, // SWE-agent
  ls: { kind: 'search', describe: describers.listCall }, // Claude
  list_directory: { kind: 'search', describe: describers.listCall }, // Gemini
  list_dir: { kind: 'search', describe: describers.listCall },
  // OpenCode's own names (its read, edit, write, bash, glob, grep, todowrite, webfetch, task and skill are above).
  list: { kind: 'search', describe: describers.listCall }, // OpenCode
  codesearch: { kind: 'search', describe: describers.searchCall }, // OpenCode
  // Plans.
  todowrite: { kind: 'plan', describe: (a) => describers.planCall(a.todos) }, // Claude
  update_plan: { kind: 'plan', describe: (a) => describers.planCall(a.plan) }, // Codex
  write_todos: { kind: 'plan', describe: (a) => describers.planCall(a.todos) }, // Gemini
  update_todo: { kind: 'plan', describe: (a) => describers.planCall(a.todos) }, // Copilot
  taskcreate: { kind: 'plan', describe: describers.taskPlanCall }, // Claude
  taskupdate: { kind: 'plan', describe: describers.taskPlanCall }, // Claude
  todoread: { kind: 'plan', describe: () => ({ paths: [] }) }, // Claude
  tasklist: { kind: 'plan', describe: () => ({ paths: [] }) }, // Claude
  exitplanmode: { kind: 'plan', describe: (a) => keyed(firstLineOf(a.plan)) }, // Claude
  // The web.
  webfetch: { kind: 'web', describe: describers.webCall }, // Claude
  websearch: { kind: 'web', describe: describers.webCall }, // Claude
  web_fetch: { kind: 'web', describe: describers.webCall }, // Gemini, Copilot
  google_web_search: { kind: 'web', describe: describers.webCall }, // Gemini
  web_search: { kind: 'web', describe: describers.webCall }, // Codex
  browser: { kind: 'web', describe: describers.webCall }, // OpenHands
  browse: { kind: 'web', describe: describers.webCall }, // OpenHands
  web_read: { kind: 'web', describe: describers.webCall }, // OpenHands
  // Sub-agents.
  task: { kind: 'task', describe: describers.subAgent }, // Claude, Copilot
  agent: { kind: 'task', describe: describers.subAgent }, // Claude
  delegate_to_agent: { kind: 'task', describe: describers.subAgent }, // Gemini
  taskoutput: { kind: 'task', describe: (a) => keyed(a.task_id === undefined ? undefined : String(a.task_id)) }, // Claude
  // The rest, named so their key argument reads well.
  report_intent: { kind: 'other', describe: (a) => keyed(a.intent) }, // Copilot
  think: { kind: 'other', describe: (a) => keyed(firstLineOf(a.thought)) }, // Copilot, OpenHands
  skill: { kind: 'other', describe: (a) => keyed(a.skill) }, // Claude
  toolsearch: { kind: 'other', describe: (a) => keyed(a.query) }, // Claude
  ask_user: { kind: 'other', describe: describers.askUser }, // Gemini
  askuserquestion: { kind: 'other', describe: describers.askUser }, // Claude
  question: { kind: 'other', describe: describers.askUser }, // OpenCode
  submit: { kind: 'other', describe: () => ({ paths: [] }) }, // SWE-agent
  finish: { kind: 'other', describe: (a) => keyed(firstLineOf(a.message)) }, // OpenHands
};
