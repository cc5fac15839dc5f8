import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { discoverOpencodeSessions } from './opencode/discover-opencode-sessions.js';
import { claudeProjectSlug, geminiProjectNames, type SessionStores } from './session-stores.js';
import type { SessionFileEntry } from './types.js';

/**
 * Every session file of every client store that may be this workspace's: Claude Code transcripts
 * of each root's project folder, Gemini CLI chats and checkpoints of each root's project folder,
 * and every Codex rollout and Copilot session (their cwd is inside the file: the import reads it
 * once and remembers it). Only directory listings and stats: no file is opened here, except
 * OpenCode's SQLite database, whose session rows name their directory (one entry per session).
 */
export async function discoverSessionFiles(stores: SessionStores, roots: readonly string[]): Promise<SessionFileEntry[]> {
  const [claude, gemini, codex, copilot, opencode] = await Promise.all([
    Promise.all(roots.map((root) => listFiles(path.join(stores.claude, 'projects', claudeProjectSlug(root)), (n) => n.endsWith('.jsonl')))),
    geminiFiles(stores.gemini, roots),
    codexFiles(stores.codex),
    copilotFiles(stores.copilot),
    discoverOpencodeSessions(stores.opencode, roots),
  ]);
  const entries = [
    ...claude.flat().map((file) => ({ client: 'claude' as const, file, placed: true })),
    ...gemini.map((file) => ({ client: 'gemini' as const, file, placed: true })),
    ...codex.map((file) => ({ client: 'codex' as const, file, placed: false })),
    ...copilot.map((file) => ({ client: 'copilot' as const, file, placed: false })),
  ];
  const stats = await Promise.all(entries.map((e) => stat(e.file).catch(() => undefined)));
  const files = entries.flatMap((e, i) => {
    const s = stats[i];
    return s?.isFile() ? [{ ...e, size: s.size, mtimeMs: Math.floor(s.mtimeMs) }] : [];
  });
  return [...files, ...opencode];
}

async function entriesOf(dir: string): Promise<Dirent[]> {
  return readdir(dir, { withFileTypes: true }).catch(() => []);
}

async function listFiles(dir: string, keep: (name: string) => boolean): Promise<string[]> {
  return (await entriesOf(dir)).filter((e) => e.isFile() && keep(e.name)).map((e) => path.join(dir, e.name));
}

async function geminiFiles(base: string, roots: readonly string[]): Promise<string[]> {
  const names = new Set(roots.flatMap(geminiProjectNames));
  for (const name of await geminiRegistered(base, roots)) names.add(name);
  const lists = await Promise.all(
    [...names].flatMap((name) => [
      listFiles(path.join(base, 'tmp', name, 'chats'), (n) => /\.jsonl?$/.test(n)),
      listFiles(path.join(base, 'tmp', name), (n) => /^checkpoint.*\.json$/.test(n)),
    ]),
  );
  return lists.flat();
}

/** Gemini CLI 0.3x and later name a project's folder in ~/.gemini/projects.json. */
async function geminiRegistered(base: string, roots: readonly string[]): Promise<string[]> {
  try {
    const parsed = JSON.parse(await readFile(path.join(base, 'projects.json'), 'utf8')) as { projects?: Record<string, unknown> };
    return roots.map((root) => parsed.projects?.[root]).filter((v): v is string => typeof v === 'string' && v.length > 0);
  } catch {
    return [];
  }
}

/** Codex rollouts: `sessions/YYYY/MM/DD/rollout-*.jsonl`. */
async function codexFiles(base: string): Promise<string[]> {
  const root = path.join(base, 'sessions');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const isRollout = (e: Dirent) => e.isFile() && e.name.startsWith('rollout-') && e.name.endsWith('.jsonl');
  const depth = (e: Dirent) => path.relative(root, e.parentPath).split(path.sep).length;
  return entries.filter((e) => isRollout(e) && depth(e) === 3).map((e) => path.join(e.parentPath, e.name));
}

async function copilotFiles(base: string): Promise<string[]> {
  const dir = path.join(base, 'session-state');
  const out: string[] = [];
  for (const entry of await entriesOf(dir)) {
    if (entry.isFile() && entry.name.endsWith('.jsonl')) out.push(path.join(dir, entry.name));
    else if (entry.isDirectory()) out.push(...(await listFiles(path.join(dir, entry.name), (n) => n === 'events.jsonl')));
  }
  return out;
}
