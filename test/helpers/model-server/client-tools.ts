import path from 'node:path';
import type { AgentClient, ToolCallAction } from './types.js';

/** Tool calls in the shape one client's own built-in tools take. */
export interface ClientTools {
  /** Creates (or overwrites) a file with the client's file-writing tool. */
  writeFile(file: string, content: string): ToolCallAction;
  /** Replaces one exact occurrence of `oldText` in an existing file with the client's edit tool. */
  editFile(file: string, oldText: string, newText: string): ToolCallAction;
  /** Runs a shell command with the client's shell tool (its result, exit code included, comes back in the next request). */
  runShell(command: string): ToolCallAction;
}

export interface ClientToolsOptions {
  /** The client's working directory: relative paths are resolved against it for clients that want absolute ones (Copilot). */
  cwd?: string;
}

/**
 * The built-in tools of each agent CLI, as they offer them to the model (seen in their requests):
 *
 * | | write | edit | shell |
 * |---|---|---|---|
 * | Claude Code 2.1.197 | `Write {file_path, content}` | `Edit {file_path, old_string, new_string}` | `Bash {command, description}` |
 * | Gemini CLI 0.61.0 | `write_file {file_path, content}` | `replace {file_path, old_string, new_string, instruction}` | `run_shell_command {command, description}` |
 * | Codex CLI 0.171.0 | `apply_patch` (freeform, `*** Add File:`) | `apply_patch` (`*** Update File:`) | `exec_command {cmd}` (or `shell_command`/`shell` on other models) |
 * | Copilot CLI 1.0.102 | `create {path, file_text}` (absolute path, file must not exist) | `edit {path, old_str, new_str}` | `bash {command, description}` |
 * | OpenCode 1.18.33 | `write {filePath, content}` | `edit {filePath, oldString, newString}` | `bash {command, description}` (exit code in its metadata only) |
 *
 * Codex offers `apply_patch` only for models it knows (the set-up in agent-clis uses one); without
 * it, writes and edits fall back to a `node -e` command through its shell tool.
 */
export function clientTools(client: AgentClient, options: ClientToolsOptions = {}): ClientTools {
  switch (client) {
    case 'claude':
      return {
        writeFile: (file_path, content) => ({ tool: 'Write', args: { file_path, content } }),
        editFile: (file_path, old_string, new_string) => ({ tool: 'Edit', args: { file_path, old_string, new_string } }),
        runShell: (command) => ({ tool: 'Bash', args: { command, description: 'Run a command' } }),
      };
    case 'gemini':
      return {
        writeFile: (file_path, content) => ({ tool: 'write_file', args: { file_path, content } }),
        editFile: (file_path, old_string, new_string) => ({
          tool: 'replace',
          args: { file_path, old_string, new_string, instruction: 'Apply the scripted edit.' },
        }),
        runShell: (command) => ({ tool: 'run_shell_command', args: { command, description: 'Run a command' } }),
      };
    case 'codex':
      return codexTools();
    case 'copilot': {
      const absolute = (file: string) => absolutePath(file, options.cwd);
      return {
        writeFile: (file, file_text) => ({ tool: 'create', args: { path: absolute(file), file_text } }),
        editFile: (file, old_str, new_str) => ({ tool: 'edit', args: { path: absolute(file), old_str, new_str } }),
        runShell: (command) => ({ tool: 'bash', args: { command, description: 'Run a command', mode: 'sync', initial_wait: 120 } }),
      };
    }
    case 'opencode': {
      const absolute = (file: string) => (options.cwd ? absolutePath(file, options.cwd) : file);
      return {
        writeFile: (file, content) => ({ tool: 'write', args: { filePath: absolute(file), content } }),
        editFile: (file, oldString, newString) => ({ tool: 'edit', args: { filePath: absolute(file), oldString, newString } }),
        runShell: (command) => ({ tool: 'bash', args: { command, description: 'Run a command' } }),
      };
    }
    case 'unknown':
      throw new Error('clientTools: the request came from no known agent CLI (view.client is "unknown"); name the client');
  }
}

function absolutePath(file: string, cwd: string | undefined): string {
  if (path.isAbsolute(file)) return file;
  if (!cwd) throw new Error(`clientTools('copilot') needs an absolute path or the cwd option (got "${file}")`);
  return path.join(cwd, file);
}

function codexShell(command: string): ToolCallAction {
  return {
    tool: 'exec_command',
    args: { cmd: command },
    fallback: { tool: 'shell_command', args: { command }, fallback: { tool: 'shell', args: { command: ['bash', '-lc', command] } } },
  };
}

/** A shell word in single quotes. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function nodeEval(script: string, ...args: string[]): string {
  return ['node', '-e', quote(script), ...args.map(quote)].join(' ');
}

function codexTools(): ClientTools {
  const lines = (text: string, prefix: string) =>
    (text.endsWith('\n') ? text.slice(0, -1) : text)
      .split('\n')
      .map((line) => `${prefix}${line}`)
      .join('\n');
  return {
    writeFile: (file, content) => ({
      tool: 'apply_patch',
      args: `*** Begin Patch\n*** Add File: ${file}\n${lines(content, '+')}\n*** End Patch\n`,
      fallback: codexShell(nodeEval('require("fs").writeFileSync(process.argv[1], process.argv[2])', file, content)),
    }),
    editFile: (file, oldText, newText) => ({
      tool: 'apply_patch',
      args: `*** Begin Patch\n*** Update File: ${file}\n@@\n${lines(oldText, '-')}\n${lines(newText, '+')}\n*** End Patch\n`,
      fallback: codexShell(
        nodeEval(
          'const fs=require("fs");const [f,a,b]=process.argv.slice(1);fs.writeFileSync(f,fs.readFileSync(f,"utf8").replace(a,()=>b))',
          file,
          oldText,
          newText,
        ),
      ),
    }),
    runShell: codexShell,
  };
}
