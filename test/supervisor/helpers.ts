import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCommandProvider, type Provider } from '../../src/providers/index.js';

export const AGENTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'agents');

/** A fresh git repository to run agents in. */
export function makeWorkspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'baton-sup-'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

/** A real `command` provider running one of test/supervisor/agents/*.mjs. */
export function agent(name: string, script: string, env: Record<string, string> = {}): Provider {
  return createCommandProvider(name, { type: 'command', command: [process.execPath, path.join(AGENTS_DIR, script)], env });
}

export interface LoggedPrompt {
  agent: string;
  attempt: number;
  task: string;
  prompt: string;
  samePromptFile: boolean;
}

/** The prompts the agents received, in order. */
export function readAgentLog(file: string): LoggedPrompt[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LoggedPrompt);
}
