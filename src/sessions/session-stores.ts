import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { type OpencodeStore, opencodeStore } from './opencode/discover-opencode-sessions.js';

/** Where each agent CLI keeps its own session records, from the environment the CLIs read. */
export interface SessionStores {
  /** `CLAUDE_CONFIG_DIR`, else ~/.claude: transcripts under `projects/<slug>/`. */
  claude: string;
  /** `CODEX_HOME`, else ~/.codex: rollouts under `sessions/YYYY/MM/DD/`. */
  codex: string;
  /** `GEMINI_CLI_HOME`/.gemini, else ~/.gemini: chats under `tmp/<project>/chats/`. */
  gemini: string;
  /** `COPILOT_HOME`, else ~/.copilot: sessions under `session-state/`. */
  copilot: string;
  /** `OPENCODE_DB`, else every `opencode*.db` of `$XDG_DATA_HOME/opencode` (~/.local/share/opencode). */
  opencode: OpencodeStore;
}

export function sessionStores(env: NodeJS.ProcessEnv): SessionStores {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  return {
    claude: env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'),
    codex: env.CODEX_HOME || path.join(home, '.codex'),
    gemini: path.join(env.GEMINI_CLI_HOME || home, '.gemini'),
    copilot: env.COPILOT_HOME || path.join(home, '.copilot'),
    opencode: opencodeStore(env, home),
  };
}

/** Claude Code's project folder name: the absolute cwd with every non-alphanumeric character `-`. */
export function claudeProjectSlug(dir: string): string {
  return dir.replace(/[^a-zA-Z0-9]/g, '-');
}

/** Gemini CLI's project folder names for a root: its sha256 (up to 0.2x) and its base-name slug (later). */
export function geminiProjectNames(root: string): string[] {
  const hash = createHash('sha256').update(root).digest('hex');
  const slug = path
    .basename(root)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return slug ? [hash, slug] : [hash];
}
