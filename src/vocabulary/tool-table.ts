import {
  askUser,
  codeCall,
  editCall,
  editorCall,
  firstLineOf,
  keyed,
  listCall,
  manyPaths,
  multiEdit,
  notebookEdit,
  patchCall,
  pathCall,
  planCall,
  searchCall,
  sessionInput,
  shellCall,
  subAgent,
  taskPlanCall,
  textAction,
  textSearch,
  webCall,
  writeCall,
  type Described,
  type ToolArgs,
} from './describe-args.js';
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
  read: { kind: 'read', clients: [CLAUDE, OPENHANDS], describe: pathCall },
  read_file: { kind: 'read', clients: [GEMINI], describe: pathCall },
  view: { kind: 'read', clients: [COPILOT], describe: pathCall },
  notebookread: { kind: 'read', clients: [CLAUDE], describe: pathCall },
  read_many_files: { kind: 'read', clients: [GEMINI], describe: manyPaths },
  open: { kind: 'read', clients: [SWE], describe: textAction },
  goto: { kind: 'read', clients: [SWE], describe: textAction },
  scroll_up: { kind: 'read', clients: [SWE], describe: textAction },
  scroll_down: { kind: 'read', clients: [SWE], describe: textAction },
  // Edits and writes.
  edit: { kind: 'edit', clients: [CLAUDE, COPILOT, OPENHANDS, SWE], describe: editCall },
  multiedit: { kind: 'edit', clients: [CLAUDE], describe: multiEdit },
  notebookedit: { kind: 'edit', clients: [CLAUDE], describe: notebookEdit },
  replace: { kind: 'edit', clients: [GEMINI], describe: editCall },
  smart_edit: { kind: 'edit', clients: [GEMINI], describe: editCall },
  edit_file: { kind: 'edit', clients: [OPENHANDS], describe: editCall },
  str_replace: { kind: 'edit', clients: [COPILOT], describe: editCall },
  insert: { kind: 'edit', clients: [COPILOT, SWE], describe: editCall },
  str_replace_editor: { kind: 'edit', clients: [COPILOT, OPENHANDS], describe: editorCall },
  str_replace_based_edit_tool: { kind: 'edit', clients: [CLAUDE], describe: editorCall },
  apply_patch: { kind: 'edit', clients: [CODEX, COPILOT], describe: patchCall },
  write: { kind: 'write', clients: [CLAUDE, OPENHANDS], describe: writeCall },
  write_file: { kind: 'write', clients: [GEMINI], describe: writeCall },
  create: { kind: 'write', clients: [COPILOT, SWE], describe: writeCall },
  // Shells.
  bash: { kind: 'shell', clients: [CLAUDE, COPILOT, SWE], describe: shellCall },
  powershell: { kind: 'shell', clients: [CLAUDE, COPILOT], describe: shellCall },
  shell: { kind: 'shell', clients: [CODEX], describe: shellCall },
  shell_command: { kind: 'shell', clients: [CODEX], describe: shellCall },
  exec_command: { kind: 'shell', clients: [CODEX], describe: shellCall },
  local_shell_call: { kind: 'shell', clients: [CODEX], describe: shellCall },
  container_exec: { kind: 'shell', clients: [CODEX], describe: shellCall },
  run_shell_command: { kind: 'shell', clients: [GEMINI], describe: shellCall },
  execute_bash: { kind: 'shell', clients: [OPENHANDS], describe: shellCall },
  run: { kind: 'shell', clients: [OPENHANDS], describe: shellCall },
  execute_ipython_cell: { kind: 'shell', clients: [OPENHANDS], describe: codeCall },
  run_ipython: { kind: 'shell', clients: [OPENHANDS], describe: codeCall },
  write_stdin: { kind: 'shell', clients: [CODEX], describe: sessionInput },
  write_bash: { kind: 'shell', clients: [COPILOT], describe: sessionInput },
  read_bash: { kind: 'shell', clients: [COPILOT], describe: sessionInput },
  write_powershell: { kind: 'shell', clients: [COPILOT], describe: sessionInput },
  read_powershell: { kind: 'shell', clients: [COPILOT], describe: sessionInput },
  bashoutput: { kind: 'shell', clients: [CLAUDE], describe: sessionInput },
  killshell: { kind: 'shell', clients: [CLAUDE], describe: sessionInput },
  killbash: { kind: 'shell', clients: [CLAUDE], describe: sessionInput },
  stop_bash: { kind: 'shell', clients: [COPILOT], describe: sessionInput },
  stop_powershell: { kind: 'shell', clients: [COPILOT], describe: sessionInput },
  // Searches and listings.
  glob: { kind: 'search', clients: [CLAUDE, GEMINI, COPILOT], describe: searchCall },
  grep: { kind: 'search', clients: [CLAUDE, COPILOT], describe: searchCall },
  search_file_content: { kind: 'search', clients: [GEMINI], describe: searchCall },
  grep_search: { kind: 'search', clients: [GEMINI], describe: searchCall },
  codebase_search: { kind: 'search', clients: [], describe: searchCall },
  search_dir: { kind: 'search', clients: [SWE], describe: textSearch },
  search_file: { kind: 'search', clients: [SWE], describe: textSearch },
  find_file: { kind: 'search', clients: [SWE], describe: textSearch },
  ls: { kind: 'search', clients: [CLAUDE], describe: listCall },
  list_directory: { kind: 'search', clients: [GEMINI], describe: listCall },
  list_dir: { kind: 'search', clients: [], describe: listCall },
  // OpenCode's own names (its read, edit, write, bash, glob, grep, todowrite, webfetch, task and skill are above).
  list: { kind: 'search', clients: [OPENCODE], describe: listCall },
  codesearch: { kind: 'search', clients: [OPENCODE], describe: searchCall },
  // Plans.
  todowrite: { kind: 'plan', clients: [CLAUDE], describe: (a) => planCall(a.todos) },
  update_plan: { kind: 'plan', clients: [CODEX], describe: (a) => planCall(a.plan) },
  write_todos: { kind: 'plan', clients: [GEMINI], describe: (a) => planCall(a.todos) },
  update_todo: { kind: 'plan', clients: [COPILOT], describe: (a) => planCall(a.todos) },
  taskcreate: { kind: 'plan', clients: [CLAUDE], describe: taskPlanCall },
  taskupdate: { kind: 'plan', clients: [CLAUDE], describe: taskPlanCall },
  todoread: { kind: 'plan', clients: [CLAUDE], describe: () => ({ paths: [] }) },
  tasklist: { kind: 'plan', clients: [CLAUDE], describe: () => ({ paths: [] }) },
  exitplanmode: { kind: 'plan', clients: [CLAUDE], describe: (a) => keyed(firstLineOf(a.plan)) },
  // The web.
  webfetch: { kind: 'web', clients: [CLAUDE], describe: webCall },
  websearch: { kind: 'web', clients: [CLAUDE], describe: webCall },
  web_fetch: { kind: 'web', clients: [GEMINI, COPILOT], describe: webCall },
  google_web_search: { kind: 'web', clients: [GEMINI], describe: webCall },
  web_search: { kind: 'web', clients: [CODEX], describe: webCall },
  browser: { kind: 'web', clients: [OPENHANDS], describe: webCall },
  browse: { kind: 'web', clients: [OPENHANDS], describe: webCall },
  web_read: { kind: 'web', clients: [OPENHANDS], describe: webCall },
  // Sub-agents.
  task: { kind: 'task', clients: [CLAUDE, COPILOT], describe: subAgent },
  agent: { kind: 'task', clients: [CLAUDE], describe: subAgent },
  delegate_to_agent: { kind: 'task', clients: [GEMINI], describe: subAgent },
  taskoutput: { kind: 'task', clients: [CLAUDE], describe: (a) => keyed(a.task_id === undefined ? undefined : String(a.task_id)) },
  // The rest, named so their key argument reads well.
  report_intent: { kind: 'other', clients: [COPILOT], describe: (a) => keyed(a.intent) },
  think: { kind: 'other', clients: [COPILOT, OPENHANDS], describe: (a) => keyed(firstLineOf(a.thought)) },
  skill: { kind: 'other', clients: [CLAUDE], describe: (a) => keyed(a.skill) },
  toolsearch: { kind: 'other', clients: [CLAUDE], describe: (a) => keyed(a.query) },
  ask_user: { kind: 'other', clients: [GEMINI], describe: askUser },
  askuserquestion: { kind: 'other', clients: [CLAUDE], describe: askUser },
  question: { kind: 'other', clients: [OPENCODE], describe: askUser },
  submit: { kind: 'other', clients: [SWE], describe: () => ({ paths: [] }) },
  finish: { kind: 'other', clients: [OPENHANDS], describe: (a) => keyed(firstLineOf(a.message)) },
};
