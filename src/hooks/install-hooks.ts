import { copyFile, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BatonError } from '../errors/index.js';
import { withCodexHooksFeature } from './codex-features.js';
import { hookCommand, type HookScope, hookTarget } from './hook-targets.js';
import { lineDiff } from './line-diff.js';
import { withBatonHooks, withoutBatonHooks } from './merge-hook-config.js';
import type { AgentClient } from './types.js';
import { describeJsonError } from '../util/index.js';

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
  /** Where the previous content was copied (only when an existing file changed). */
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
 * user's own hooks kept), plus what the client needs to run them (Codex: `[features] hooks = true`).
 * Idempotent: a second install changes nothing. Each changed file is copied to `FILE.baton-backup`
 * first and its diff returned. Throws INPUT_INVALID naming the file when a settings file is not
 * JSON (nothing is written then).
 */
export async function installHooks(options: InstallHooksOptions): Promise<HookInstallResult> {
  const target = hookTarget(options.client, options.scope, options.workspace, options.env);
  const settings = await readSettings(target.settingsFile);
  const next = withBatonHooks(settings.json, options.client, (event) =>
    hookCommand(options.client, options.scope, options.workspace, options.bin, event),
  );
  const changes = [planJson(target.settingsFile, settings, next)];
  if (target.featureFile) {
    const toml = await readText(target.featureFile);
    changes.push(plan(target.featureFile, toml, withCodexHooksFeature(toml ?? '')));
  }
  const batonDir = path.join(options.workspace, '.baton');
  const createdBatonDir = !(await exists(batonDir));
  if (!options.dryRun) {
    if (createdBatonDir) await mkdir(batonDir, { recursive: true });
    for (const change of changes) await apply(change);
  }
  return {
    client: options.client,
    scope: options.scope,
    dryRun: Boolean(options.dryRun),
    files: changes.map(report),
    createdBatonDir,
    notes: installNotes(options.client, options.scope),
  };
}

/** Removes Baton's hooks of `client` from the scope's settings (the user's own stay). Leaves Codex's feature flag. */
export async function uninstallHooks(options: Omit<InstallHooksOptions, 'bin'>): Promise<HookInstallResult> {
  const target = hookTarget(options.client, options.scope, options.workspace, options.env);
  const settings = await readSettings(target.settingsFile);
  const change =
    settings.text === undefined
      ? plan(target.settingsFile, undefined, undefined)
      : planJson(target.settingsFile, settings, withoutBatonHooks(settings.json, options.client));
  if (!options.dryRun) await apply(change);
  const notes = options.client === 'codex' ? [`${target.featureFile} keeps [features] hooks = true (other hooks may need it).`] : [];
  return {
    client: options.client,
    scope: options.scope,
    dryRun: Boolean(options.dryRun),
    files: [report(change)],
    createdBatonDir: false,
    notes,
  };
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
  after: string | undefined;
}

function plan(file: string, before: string | undefined, after: string | undefined): Planned {
  return { file, before, after };
}

function planJson(file: string, settings: { text?: string; json: Record<string, unknown> }, next: Record<string, unknown>): Planned {
  const unchanged = settings.text !== undefined && JSON.stringify(settings.json) === JSON.stringify(next);
  return plan(file, settings.text, unchanged ? settings.text : `${JSON.stringify(next, null, 2)}\n`);
}

function report(change: Planned): HookFileChange {
  const changed = change.after !== undefined && change.after !== change.before;
  const out: HookFileChange = {
    file: change.file,
    changed,
    diff: changed ? lineDiff(change.file, change.before ?? '', change.after ?? '') : '',
  };
  if (changed && change.before !== undefined) out.backup = `${change.file}.baton-backup`;
  return out;
}

async function apply(change: Planned): Promise<void> {
  if (change.after === undefined || change.after === change.before) return;
  await mkdir(path.dirname(change.file), { recursive: true });
  if (change.before !== undefined) await copyFile(change.file, `${change.file}.baton-backup`);
  const temporary = `${change.file}.${process.pid}.tmp`;
  await writeFile(temporary, change.after);
  await rename(temporary, change.file);
}

async function readSettings(file: string): Promise<{ text?: string; json: Record<string, unknown> }> {
  const text = await readText(file);
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

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new BatonError('INPUT_INVALID', `Cannot read ${file}: ${(error as Error).message}`, { details: { file } });
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
