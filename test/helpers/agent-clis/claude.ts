import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ClientSetup, ClientSetupInput } from './client-setup.js';

/** Claude Code's tools a headless coding run needs without prompts (as root, `--dangerously-skip-permissions` is refused). */
export const CLAUDE_ALLOWED_TOOLS = ['Bash', 'Write', 'Edit', 'Read', 'Glob', 'Grep'];

/**
 * Claude Code 2.1.197 against the Anthropic Messages API: `ANTHROPIC_BASE_URL` (it adds
 * `/v1/messages`), a dummy `ANTHROPIC_API_KEY`, and no non-essential traffic (no update checks,
 * telemetry or feedback calls). Headless: `claude -p --output-format json --permission-mode
 * acceptEdits --allowedTools Bash,Write,…`, the prompt on stdin (or as an argument after `--`;
 * `-p PROMPT` with a prompt starting with `-` fails: "error: unknown option"). Hooks: `.claude/settings.json` in
 * the workspace, or `~/.claude/settings.json` (configDir).
 */
export function claudeSetup({ serverUrl, home, model }: ClientSetupInput): ClientSetup {
  const configDir = path.join(home, '.claude');
  mkdirSync(configDir, { recursive: true });
  return {
    env: {
      ANTHROPIC_BASE_URL: serverUrl,
      ANTHROPIC_API_KEY: 'sk-ant-scripted-test-key',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
    configDir,
    promptVia: 'stdin',
    headless: (prompt, { promptVia = 'stdin', extraArgs = [] }) => {
      const args = ['-p', '--output-format', 'json', '--permission-mode', 'acceptEdits', '--allowedTools', CLAUDE_ALLOWED_TOOLS.join(',')];
      if (model) args.push('--model', model);
      args.push(...extraArgs);
      return promptVia === 'stdin' ? { args, input: prompt } : { args: [...args, '--', prompt] };
    },
    finalText: (stdout) => jsonField(stdout, 'result'),
  };
}

/** A string field of the JSON document a client printed (the last line that parses). */
export function jsonField(stdout: string, field: string): string | undefined {
  const trimmed = stdout.trim();
  const candidates = [trimmed, ...trimmed.split('\n').reverse()];
  for (const candidate of candidates) {
    try {
      const value = (JSON.parse(candidate) as Record<string, unknown>)[field];
      if (typeof value === 'string') return value;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}
