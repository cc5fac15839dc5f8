/** Tools that run shell commands, by the name each client gives them. */
const SHELL_TOOLS = new Set(['Bash', 'bash', 'run_shell_command', 'exec_command', 'write_stdin', 'shell', 'shell_command', 'local_shell']);

/**
 * A shell command's exit code from the wording each client puts in the tool result: Claude
 * "Exit code 3", Gemini "Exit Code: 3", Codex "Process exited with code 3", Copilot
 * "<exited with exit code 3>". Undefined for other tools and when the text names none.
 */
export function exitCodeOf(toolName: string, text: string): number | undefined {
  if (!SHELL_TOOLS.has(toolName)) return undefined;
  const match = /\b(?:exit code|exited with code)\s*:?\s*(-?\d+)/i.exec(text);
  return match ? Number(match[1]) : undefined;
}
