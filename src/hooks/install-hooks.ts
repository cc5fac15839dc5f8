import { existsSync, readFileSync } from 'node:fs';
import { access, chmod, constants, lstat, mkdir, realpath, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { BatonError } from '../errors/index.js';
import { withCodexHooksFeature } from './codex-features.js';
import { hookCommand, type HookScope, hookTarget } from './hook-targets.js';
import { backUp, type InstalledFile, type InstalledRecord, readInstalled, sha256, writeInstalled } from './install-record.js';
import { batonHookEvents, withBatonHooks, withoutBatonHooks } from './merge-hook-config.js';
import type { AgentClient } from './types.js';
import { describeJsonError } from '../util/index.js';

/** @default 4000: lines compared at most; longer files are shown as replaced whole. */
const MAX_DIFF_LINES = 4_000;

export interface InstallHooksOptions {
  client: AgentClient;
  scope: HookScope;
  /** The project folder (its `.baton/` is where the hooks keep their record). */
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** Absolute path of the `baton` bin to call when the project has no install of its own. */
  bin: string;
  /** Show what would change, write nothing. @default false */
  dryRun?: boolean;
}

/** One file an install or uninstall touches. */
export interface HookFileChange {
  file: string;
  /** Whether its content changes. */
  changed: boolean;
  /** Where the previous content was copied, under `.baton/hooks/backups/` (only when an existing file changed). */
  backup?: string;
  /** Unified-style diff of the change ('' when unchanged). */
  diff: string;
}

export interface HookInstallResult {
  client: AgentClient;
  scope: HookScope;
  dryRun: boolean;
  files: HookFileChange[];
  /** The workspace's `.baton/` was created (the hooks act only where it exists). */
  createdBatonDir: boolean;
  /** What the user must know or do for the hooks to fire. */
  notes: string[];
}

/**
 * Writes Baton's hooks into the client's settings for `scope`, merged with what is there (the
 * user's own hooks kept, the file's indentation, mode and symbolic link too), plus what the client
 * needs to run them (Codex: `[features] hooks = true`). Idempotent: a second install changes
 * nothing. Each changed file is first copied under `.baton/hooks/backups/` (never overwriting an
 * earlier copy), and `.baton/hooks/installed.json` records what was there and what was written, for
 * uninstall. Throws INPUT_INVALID naming the file when a settings file is not JSON or is read-only
 * (nothing is written then).
 */
export async function installHooks(options: InstallHooksOptions): Promise<HookInstallResult> {
  const target = hookTarget(options.client, options.scope, options.workspace, options.env);
  const settings = readSettings(target.settingsFile);
  const next = withBatonHooks(settings.json, options.client, (event) =>
    hookCommand(options.client, options.scope, options.workspace, options.bin, event),
  );
  const fresh = batonHookEvents(settings.json, options.client).length === 0;
  const unchanged = settings.text !== undefined && isDeepStrictEqual(settings.json, next);
  const changes = [plan(target.settingsFile, settings.text, unchanged ? settings.text : stringifyLike(settings.text, next), fresh)];
  if (target.featureFile) {
    const toml = readText(target.featureFile);
    changes.push(plan(target.featureFile, toml, withCodexHooksFeature(toml ?? ''), true));
  }
  const batonDir = path.join(options.workspace, '.baton');
  const createdBatonDir = !existsSync(batonDir);
  if (!options.dryRun) {
    await assertAllWritable(changes);
    if (createdBatonDir) await mkdir(batonDir, { recursive: true });
    const record = readInstalled(options.workspace);
    for (const change of changes) await applyInstall(change, options.workspace, record);
    await writeInstalled(options.workspace, record);
  }
  return { ...resultOf(options, changes), createdBatonDir, notes: installNotes(options.client, options.scope) };
}

/**
 * Removes Baton's hooks of `client` from the scope's settings (the user's own stay). When nothing
 * else changed since install, the file gets back its exact bytes from before (or is removed, with
 * its folder, when install created it). Codex's feature flag stays in a config.toml that existed.
 */
export async function uninstallHooks(options: Omit<InstallHooksOptions, 'bin'>): Promise<HookInstallResult> {
  const target = hookTarget(options.client, options.scope, options.workspace, options.env);
  const record = readInstalled(options.workspace);
  const settings = readSettings(target.settingsFile);
  const changes = [planUninstall(target.settingsFile, settings, record[target.settingsFile], options.client)];
  if (target.featureFile) changes.push(planFeatureUninstall(target.featureFile, record[target.featureFile]));
  if (!options.dryRun) {
    await assertAllWritable(changes);
    for (const change of changes.filter(changes_)) {
      if (change.after === undefined) await removeCreated(change.file, change.createdDir);
      else await writeSettingsFile(change.file, change.after);
      delete record[change.file];
    }
    if (changes.some(changes_)) await writeInstalled(options.workspace, record);
  }
  const notes =
    options.client === 'codex' && existsSync(target.featureFile ?? '')
      ? [`${target.featureFile} keeps [features] hooks = true (other hooks may need it).`]
      : [];
  return { ...resultOf(options, changes), createdBatonDir: false, notes };
}

function resultOf(options: Omit<InstallHooksOptions, 'bin'>, changes: Planned[]): Omit<HookInstallResult, 'createdBatonDir' | 'notes'> {
  return { client: options.client, scope: options.scope, dryRun: Boolean(options.dryRun), files: changes.map(report) };
}

/** Every file to change must be writable before any is written. */
async function assertAllWritable(changes: Planned[]): Promise<void> {
  for (const change of changes.filter(changes_)) await assertWritable(change.file);
}

function installNotes(client: AgentClient, scope: HookScope): string[] {
  const where =
    scope === 'project' ? 'this project' : 'every project that has a .baton/ folder (run `baton hooks install` or `baton init` there)';
  switch (client) {
    case 'claude':
      return [
        `Claude Code reads its settings when a session starts: sessions already running keep their old hooks. The hooks act in ${where}; /hooks in Claude Code lists them.`,
      ];
    case 'gemini':
      return [
        `Gemini CLI runs a project's hooks only in a trusted folder: trust this folder when Gemini asks (headless runs: GEMINI_CLI_TRUST_WORKSPACE=true). The hooks act in ${where}.`,
      ];
    case 'codex':
      return [
        'Codex runs a new or changed hook only after you trust it, and until then skips it silently: start `codex`, open /hooks, review and trust the Baton hooks. For a one-off automated run whose hooks you checked, `codex exec --dangerously-bypass-hook-trust` runs them untrusted.',
        scope === 'project'
          ? "Codex loads a project's .codex/ hooks only when it trusts the project itself (it asks on the first interactive start)."
          : `The hooks act in ${where}.`,
        '[features] hooks = true is set in config.toml (Codex 0.171 needs it; newer releases have hooks on by default).',
      ];
  }
}

interface Planned {
  file: string;
  before: string | undefined;
  /** undefined with `before` set: the file is removed. */
  after: string | undefined;
  /** The file's folder does not exist yet. */
  createdDir: boolean;
  /** Install: the file holds nothing of Baton's yet, so its content is the original to keep. */
  fresh: boolean;
  backup?: string;
}

function plan(file: string, before: string | undefined, after: string | undefined, fresh: boolean): Planned {
  return { file, before, after, fresh, createdDir: !existsSync(path.dirname(file)) };
}

function changes_(change: Planned): boolean {
  return change.after !== change.before;
}

function planUninstall(file: string, settings: Settings, entry: InstalledFile | undefined, client: AgentClient): Planned {
  if (settings.text === undefined) return plan(file, undefined, undefined, false);
  const stripped = withoutBatonHooks(settings.json, client);
  const original = entry === undefined ? undefined : originalOf(entry);
  const untouched = entry !== undefined && sha256(settings.text) === entry.writtenSha256;
  if (entry?.created && (untouched || Object.keys(stripped).length === 0))
    return { ...plan(file, settings.text, undefined, false), createdDir: entry.createdDir };
  if (original !== undefined && (untouched || isDeepStrictEqual(stripped, parseOr(original))))
    return plan(file, settings.text, original, false);
  if (isDeepStrictEqual(stripped, settings.json)) return plan(file, settings.text, settings.text, false);
  return plan(file, settings.text, stringifyLike(settings.text, stripped), false);
}

function planFeatureUninstall(file: string, entry: InstalledFile | undefined): Planned {
  const text = readText(file);
  const remove = text !== undefined && entry?.created === true && sha256(text) === entry.writtenSha256;
  return { ...plan(file, text, remove ? undefined : text, false), createdDir: entry?.createdDir ?? false };
}

/** The content before the first install, from its backup, when the backup is still that content. */
function originalOf(entry: InstalledFile): string | undefined {
  const text = entry.backup === undefined ? undefined : readText(entry.backup, true);
  return text !== undefined && sha256(text) === entry.originalSha256 ? text : undefined;
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** JSON written the way the file was: its indentation (none for a one-line file) and final newline. */
function stringifyLike(text: string | undefined, json: Record<string, unknown>): string {
  if (text === undefined || text.trim() === '') return `${JSON.stringify(json, null, 2)}\n`;
  const body = text.trimEnd();
  const indent = body.includes('\n') ? (/\n([ \t]+)\S/.exec(body)?.[1] ?? 2) : 0;
  return `${JSON.stringify(json, null, indent)}${text.endsWith('\n') ? '\n' : ''}`;
}

function report(change: Planned): HookFileChange {
  const changed = changes_(change);
  const diff = changed ? lineDiff(change.file, change.before ?? '', change.after ?? '') : '';
  return { file: change.file, changed, diff, ...(change.backup === undefined ? {} : { backup: change.backup }) };
}

async function applyInstall(change: Planned, workspace: string, record: InstalledRecord): Promise<void> {
  if (!changes_(change) || change.after === undefined) return;
  if (change.before !== undefined) change.backup = await backUp(workspace, change.file);
  await mkdir(path.dirname(change.file), { recursive: true });
  await writeSettingsFile(change.file, change.after);
  const kept = change.fresh ? undefined : record[change.file];
  const entry: InstalledFile = kept ?? { created: change.before === undefined, createdDir: change.createdDir, writtenSha256: '' };
  if (kept === undefined && change.before !== undefined) {
    entry.backup = change.backup;
    entry.originalSha256 = sha256(change.before);
  }
  record[change.file] = { ...entry, writtenSha256: sha256(change.after) };
}

type Settings = { text?: string; json: Record<string, unknown> };

function readSettings(file: string): Settings {
  const text = readText(file);
  if (text === undefined || text.trim() === '') return { text, json: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BatonError(
      'INPUT_INVALID',
      `${file} is not valid JSON (${describeJsonError(text, error)}); fix it first: nothing was changed.`,
      {
        details: { file },
      },
    );
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new BatonError('INPUT_INVALID', `${file} does not hold a JSON object; fix it first: nothing was changed.`, { details: { file } });
  }
  return { text, json: json as Record<string, unknown> };
}

/** The file's text; undefined when it does not exist (or, `quiet`, cannot be read), else INPUT_INVALID. */
function readText(file: string, quiet = false): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || quiet) return undefined;
    throw new BatonError('INPUT_INVALID', `Cannot read ${file}: ${(error as Error).message}`, { details: { file } });
  }
}

/**
 * Refuses a settings file Baton must not write: read-only (no write bit for anyone, or not
 * writable by this user). Nothing is written then; the message names the file and the way out.
 */
async function assertWritable(file: string): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (info === undefined) return;
  const writable =
    (info.mode & 0o222) !== 0 &&
    (await access(file, constants.W_OK).then(
      () => true,
      () => false,
    ));
  if (writable) return;
  throw new BatonError(
    'INPUT_INVALID',
    `${file} is read-only (mode ${(info.mode & 0o777).toString(8)}); nothing was changed. Make it writable (chmod u+w) to let Baton change it, or edit it yourself.`,
    { details: { file } },
  );
}

/**
 * Replaces a settings file's content atomically, keeping what the user chose for it: its mode
 * (a mode-600 file holding a key stays 600) and, when it is a symbolic link (dotfiles), the link:
 * the file it points at is written.
 */
async function writeSettingsFile(file: string, text: string): Promise<void> {
  const target = await realTarget(file);
  const mode = await stat(target).then(
    (info) => info.mode & 0o7777,
    () => undefined,
  );
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  await writeFile(temporary, text, mode === undefined ? {} : { mode });
  if (mode !== undefined) await chmod(temporary, mode);
  await rename(temporary, target);
}

/** Removes a file install created, and its folder when install created that too and it is empty. */
async function removeCreated(file: string, createdDir: boolean): Promise<void> {
  await unlink(file).catch(() => undefined);
  if (createdDir) await rmdir(path.dirname(file)).catch(() => undefined);
}

async function realTarget(file: string): Promise<string> {
  const link = await lstat(file).catch(() => undefined);
  if (!link?.isSymbolicLink()) return file;
  return realpath(file).catch(() => file);
}

/**
 * A unified-style diff of two texts (`-` removed, `+` added, 2 lines of context around changes),
 * headed by the file name; '' when they are equal. Small files only (settings files): a plain
 * longest-common-subsequence table.
 */
function lineDiff(file: string, before: string, after: string): string {
  if (before === after) return '';
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after.replace(/\n$/, '').split('\n');
  const ops = a.length * b.length > MAX_DIFF_LINES * MAX_DIFF_LINES ? [...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)] : diffOps(a, b);
  const keep = new Set<number>();
  ops.forEach((op, i) => {
    if (op[0] !== ' ') for (let j = Math.max(0, i - 2); j <= Math.min(ops.length - 1, i + 2); j += 1) keep.add(j);
  });
  const lines: string[] = [`--- ${file}${before === '' ? ' (new file)' : ''}`, `+++ ${file}`];
  let skipped = false;
  ops.forEach((op, i) => {
    if (keep.has(i)) {
      lines.push(op);
      skipped = false;
    } else if (!skipped) {
      lines.push('  …');
      skipped = true;
    }
  });
  return `${lines.join('\n')}\n`;
}

function diffOps(a: string[], b: string[]): string[] {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      table[i * cols + j] =
        a[i] === b[j] ? (table[(i + 1) * cols + j + 1] ?? 0) + 1 : Math.max(table[(i + 1) * cols + j] ?? 0, table[i * cols + j + 1] ?? 0);
  const ops: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push(` ${a[i]}`);
      i += 1;
      j += 1;
    } else if ((table[(i + 1) * cols + j] ?? 0) >= (table[i * cols + j + 1] ?? 0)) ops.push(`-${a[i++]}`);
    else ops.push(`+${b[j++]}`);
  }
  while (i < a.length) ops.push(`-${a[i++]}`);
  while (j < b.length) ops.push(`+${b[j++]}`);
  return ops;
}
