import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { AgentRunContext } from './types.js';

/** The codex settings Baton reports: which model, from which provider, at which endpoint. */
export interface CodexSettings {
  /** $CODEX_HOME, else ~/.codex. */
  home: string;
  model?: string;
  /** The model provider's id (`model_provider`); codex's default is "openai". */
  provider: string;
  /** The provider's base_url, when its config names one. */
  baseUrl?: string;
}

/** codex's built-in provider and its endpoint, used when the config names neither. */
const OPENAI = { id: 'openai', baseUrl: 'https://api.openai.com/v1' };

/**
 * What codex ran with, read as codex reads it: `$CODEX_HOME/config.toml`, then the profile's
 * `<name>.config.toml` (`-p NAME`), then `-c key=value` and `-m MODEL` on the command line. Only
 * the few keys Baton reports are read, line by line; anything else in the file is ignored.
 * Never throws: a missing or unreadable file counts as empty.
 */
export async function readCodexSettings(context: AgentRunContext): Promise<CodexSettings> {
  const home = context.env.CODEX_HOME || path.join(context.env.HOME || homedir(), '.codex');
  const flags = readFlags(context.args);
  const values = new Map<string, string>();
  const layers = [path.join(home, 'config.toml'), ...(flags.profile ? [path.join(home, `${flags.profile}.config.toml`)] : [])];
  for (const file of layers) for (const [key, value] of readTomlStrings(await readText(file))) values.set(key, value);
  for (const [key, value] of flags.overrides) values.set(key, value);
  const provider = values.get('model_provider') ?? OPENAI.id;
  const model = flags.model ?? values.get('model') ?? context.requested;
  const baseUrl =
    values.get(`model_providers.${provider}.base_url`) ??
    (provider === OPENAI.id ? (context.env.OPENAI_BASE_URL ?? OPENAI.baseUrl) : undefined);
  return { home, provider, ...(model ? { model } : {}), ...(baseUrl ? { baseUrl } : {}) };
}

/**
 * The model of a codex session, from its rollout file (`sessions/YYYY/MM/DD/rollout-…-ID.jsonl`,
 * whose `turn_context` records the model each turn ran with). Only the newest two day folders are
 * looked at: the session was written by the run that just ended.
 */
export async function readSessionModel(home: string, sessionId: string): Promise<string | undefined> {
  for (const day of await newestDayFolders(path.join(home, 'sessions'), 2)) {
    const names = await readDirectory(day);
    const name = names.find((n) => n.endsWith(`-${sessionId}.jsonl`));
    if (name === undefined) continue;
    let model: string | undefined;
    for (const line of (await readText(path.join(day, name))).split('\n')) {
      if (!line.includes('"turn_context"')) continue;
      try {
        const payload = (JSON.parse(line) as { payload?: { model?: unknown } }).payload;
        if (typeof payload?.model === 'string' && payload.model !== '') model = payload.model;
      } catch {
        // A line cut short by a killed run: the earlier turns still say.
      }
    }
    return model;
  }
  return undefined;
}

/** `-m/--model`, `-p/--profile` and `-c/--config key=value` before `--` (codex's clap options). */
function readFlags(args: readonly string[]): { model?: string; profile?: string; overrides: [string, string][] } {
  const flags: ReturnType<typeof readFlags> = { overrides: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (!['-m', '--model', '-p', '--profile', '-c', '--config'].includes(name)) continue;
    const value = inline ?? args[++i];
    if (value === undefined) break;
    if (name === '-m' || name === '--model') flags.model = value;
    else if (name === '-p' || name === '--profile') flags.profile = value;
    else {
      const eq = value.indexOf('=');
      if (eq > 0) flags.overrides.push([value.slice(0, eq).trim(), unquote(value.slice(eq + 1).trim())]);
    }
  }
  return flags;
}

/** `key = "string"` lines of a TOML file as dotted keys (`[a.b]` then `c = "x"` is `a.b.c`). */
function readTomlStrings(text: string): [string, string][] {
  const out: [string, string][] = [];
  let table = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[([^[\]]+)\]$/.exec(line);
    if (header) {
      table = header[1]!
        .split('.')
        .map((part) => unquote(part.trim()))
        .join('.');
      continue;
    }
    const entry = /^([A-Za-z0-9_.-]+)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*(#.*)?$/.exec(line);
    if (entry) out.push([table ? `${table}.${entry[1]!}` : entry[1]!, unquote(entry[2]!)]);
  }
  return out;
}

function unquote(value: string): string {
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]) {
    const inner = value.slice(1, -1);
    return value[0] === '"' ? inner.replace(/\\(["\\])/g, '$1') : inner;
  }
  return value;
}

async function newestDayFolders(root: string, count: number): Promise<string[]> {
  const folders: string[] = [];
  for (const year of (await readDirectory(root)).filter(isNumber).sort().reverse()) {
    for (const month of (await readDirectory(path.join(root, year))).filter(isNumber).sort().reverse()) {
      for (const day of (await readDirectory(path.join(root, year, month))).filter(isNumber).sort().reverse()) {
        folders.push(path.join(root, year, month, day));
        if (folders.length === count) return folders;
      }
    }
  }
  return folders;
}

function isNumber(name: string): boolean {
  return /^\d+$/.test(name);
}

/** A folder's entries, none where it cannot be read. */
function readDirectory(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

/** A file's text, '' where it cannot be read. */
function readText(file: string): Promise<string> {
  return readFile(file, 'utf8').catch(() => '');
}
