import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { claudeProjectSlug } from '../../src/sessions/index.js';

/** The env of a user whose client stores live under `home` (real process.env plus those). */
export function sessionHomeEnv(home: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, 'claude'),
    CODEX_HOME: path.join(home, 'codex'),
    GEMINI_CLI_HOME: path.join(home, 'gemini'),
    COPILOT_HOME: path.join(home, 'copilot'),
    BATON_LEDGER: `sqlite:${path.join(home, 'ledger.db')}`,
    BATON_LOG_LEVEL: 'warn',
  };
}

/**
 * Writes one Claude Code transcript of about `bytes` into `workspace`'s project folder: the real
 * transcripts of `dir` (the shared fixtures) one after the other, again and again, each copy's
 * tool ids made unique so every call and result is read. Returns the file and its size.
 */
export async function writeBigClaudeSession(
  dir: string,
  home: string,
  workspace: string,
  bytes: number,
): Promise<{ file: string; size: number }> {
  const names = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();
  const texts = await Promise.all(names.map((f) => readFile(path.join(dir, f), 'utf8')));
  const sessionId = '5e55e55e-0000-4000-8000-000000000037';
  const parts: string[] = [];
  let size = 0;
  for (let k = 0; size < bytes; k += 1) {
    const text = (texts[k % texts.length] as string)
      .replace(/"toolu_/g, `"toolu_${k}_`)
      .replace(/"sessionId":"[^"]*"/g, `"sessionId":"${sessionId}"`);
    const piece = text.endsWith('\n') ? text : `${text}\n`;
    parts.push(piece);
    size += Buffer.byteLength(piece);
  }
  const folder = path.join(home, 'claude', 'projects', claudeProjectSlug(workspace));
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, `${sessionId}.jsonl`);
  await writeFile(file, parts.join(''));
  return { file, size: (await stat(file)).size };
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return Math.round((sorted[i] ?? 0) * 10) / 10;
}
