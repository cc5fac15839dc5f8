import type { HandoffTarget } from './build-handoff.js';

/**
 * How each agent CLI is started with the handoff as its first prompt. Interactive (a terminal):
 * Claude Code and Codex take it as the positional prompt after `--`, Gemini CLI and Copilot CLI as
 * one `--prompt-interactive=` / `--interactive=` argument — so a prompt starting with `---` stays
 * a prompt. Without a terminal: the headless forms `baton run` uses (`claude -p … -- PROMPT`,
 * `codex exec … -- PROMPT`, `gemini --prompt=`, `copilot --prompt=`).
 */
export function handoffArgv(target: HandoffTarget, prompt: string, interactive: boolean): string[] {
  if (interactive) {
    if (target === 'claude' || target === 'codex') return ['--', prompt];
    if (target === 'gemini') return [`--prompt-interactive=${prompt}`];
    return [`--interactive=${prompt}`];
  }
  if (target === 'claude') return ['-p', '--', prompt];
  if (target === 'codex') return ['exec', '--', prompt];
  return [`--prompt=${prompt}`];
}
