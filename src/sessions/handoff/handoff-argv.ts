import type { HandoffTarget } from './build-handoff.js';

/**
 * How each agent CLI is started with the handoff as its first prompt. Interactive (a terminal):
 * Claude Code and Codex take it as the positional prompt after `--`, Gemini CLI and Copilot CLI as
 * one `--prompt-interactive=` / `--interactive=` argument — so a prompt starting with `---` stays
 * a prompt; OpenCode's TUI as one `--prompt=` argument. Without a terminal: the headless forms
 * `baton run` uses (`claude -p … -- PROMPT`, `codex exec … -- PROMPT`, `gemini --prompt=`,
 * `copilot --prompt=`), and `opencode run -- PROMPT`.
 */
export function handoffArgv(target: HandoffTarget, prompt: string, interactive: boolean): string[] {
  if (interactive) {
    if (target === 'claude' || target === 'codex') return ['--', prompt];
    if (target === 'gemini') return [`--prompt-interactive=${prompt}`];
    if (target === 'opencode') return [`--prompt=${prompt}`];
    return [`--interactive=${prompt}`];
  }
  if (target === 'claude') return ['-p', '--', prompt];
  if (target === 'codex') return ['exec', '--', prompt];
  if (target === 'opencode') return ['run', '--', prompt];
  return [`--prompt=${prompt}`];
}
