import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { readSessionFile } from '../../sessions/index.js';
import type { Replay } from './replay.js';
import { sessionReplay } from './session-replay.js';

/** Where the shared agent-session fixtures live, relative to the project root. */
export const SHARED_SESSIONS_DIR = '../shared/fixtures/agent-sessions';

/**
 * The system prompt the sessions benchmark puts first in every replay. Session records do not keep
 * the system prompt their client sent, but a user's loop has one, and a policy must not win by
 * dropping it (its lines kept are reported): this one is a plain coding-agent prompt of the usual
 * kind, about 330 tokens, written for the benchmark.
 */
export const STAND_IN_SYSTEM_PROMPT = `You are a coding agent working in the user's repository through tools.
Read before you edit: open the files you are about to change and the code that calls them.
Make the smallest change that solves the task, in the style of the code around it.
Prefer editing existing files to creating new ones; never create documentation files unless asked.
Run the project's own checks after a change: its tests, its type checker and its linter.
When a command fails, read its output, find the first real error, and fix the cause, not the symptom.
Never claim a test passed without running it; quote the command and its result.
Keep a short plan for work of more than three steps and update it as items are done.
Do not commit, push, or delete branches unless the user asks you to.
Never print or write secrets: tokens, keys, passwords or private certificates.
If a request is ambiguous, state the assumption you make and go on; ask only when you cannot.
Use absolute paths in tool calls when the tool asks for them.
Shell commands run in a sandbox without network access unless the user allowed it.
Long outputs are cut: search or read a range instead of printing whole files.
When you are done, say what changed, where, and how you checked it, in a few lines.
Answer in the language the user writes in.`;

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
