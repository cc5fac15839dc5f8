import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { readSessionFile } from '../../sessions/index.js';
import type { Replay } from './replay.js';
import { sessionReplay } from './session-replay.js';
import { STAND_IN_SYSTEM_PROMPT } from './stand-in-system-prompt.js';

/** Where the shared agent-session fixtures live, relative to the project root. */
export const SHARED_SESSIONS_DIR = '../shared/fixtures/agent-sessions';

/**
 * Reads agent CLI session files (Claude Code, Codex CLI, Gemini CLI, Copilot CLI) through the
 * session readers of src/sessions and makes each a facts replay (sessionReplay, with the stand-in
 * system prompt). Folders are walked for `.jsonl` and `.json` files; a session without a model
 * call is left out.
 */
export async function readSessionReplays(paths: readonly string[], system = STAND_IN_SYSTEM_PROMPT): Promise<Replay[]> {
  const replays: Replay[] = [];
  for (const file of await sessionFiles(paths)) {
    const { session } = await readSessionFile(file);
    const replay = sessionReplay(session, system);
    if (replay.steps.length > 0) replays.push(replay);
  }
  return replays;
}

async function sessionFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const info = await stat(p).catch(() => undefined);
    if (!info?.isDirectory()) {
      out.push(p);
      continue;
    }
    const entries = (await readdir(p)).sort();
    const nested = entries.map((n) => path.join(p, n));
    const dirs: string[] = [];
    for (const n of nested) {
      const s = await stat(n);
      if (s.isDirectory()) dirs.push(n);
      else if (/\.jsonl?$/.test(n)) out.push(n);
    }
    out.push(...(await sessionFiles(dirs)));
  }
  return out;
}
