import path from 'node:path';
import { BatonError } from '../../../errors/index.js';
import {
  type AgentClient,
  CLIENT_SPECS,
  clientLabel,
  HOOK_EVENTS,
  HOOK_SCOPES,
  type HookInstallResult,
  type HookScope,
  type HooksStatus,
  hooksStatus,
  installHooks,
  isAgentClient,
  uninstallHooks,
} from '../../../hooks/index.js';
import { PACKAGE_ROOT } from '../../../version/index.js';
import { type CliIO, type CommonOptions, EXIT_FAILURE, EXIT_OK, parseChoice, printResult } from '../../context.js';

/** What the installed hooks run: this package's bin/baton.js. */
const BATON_BIN = path.join(PACKAGE_ROOT, 'bin', 'baton.js');

export interface HooksCliOptions extends CommonOptions {
  client?: string;
  scope?: string;
  dryRun?: boolean;
}

export async function runHooksInstall(io: CliIO, options: HooksCliOptions): Promise<number> {
  const { client, scope } = parseTarget(options);
  const result = await installHooks({ client, scope, workspace: io.cwd, env: io.env, bin: BATON_BIN, dryRun: options.dryRun });
  printResult(io, options, result, () => renderChange(result, 'install'));
  return EXIT_OK;
}

export async function runHooksUninstall(io: CliIO, options: HooksCliOptions): Promise<number> {
  const { client, scope } = parseTarget(options);
  const result = await uninstallHooks({ client, scope, workspace: io.cwd, env: io.env, dryRun: options.dryRun });
  printResult(io, options, result, () => renderChange(result, 'uninstall'));
  return EXIT_OK;
}

/** Exit 1 when a client named with --client has no complete install in either scope. */
export async function runHooksStatus(io: CliIO, options: HooksCliOptions): Promise<number> {
  const clients = options.client === undefined ? (Object.keys(CLIENT_SPECS) as AgentClient[]) : [parseClient(options.client)];
  const status = hooksStatus(clients, io.cwd, io.env);
  printResult(io, options, status, () => renderStatus(status));
  const complete = status.scopes.some((scope) => scope.missing.length === 0 && (scope.featureOn ?? true));
  return options.client !== undefined && !complete ? EXIT_FAILURE : EXIT_OK;
}

function parseTarget(options: HooksCliOptions): { client: AgentClient; scope: HookScope } {
  return { client: parseClient(options.client), scope: parseChoice(options.scope ?? 'project', HOOK_SCOPES, '--scope') };
}

function parseClient(value: string | undefined): AgentClient {
  if (isAgentClient(value)) return value;
  throw new BatonError('INPUT_INVALID', `--client must be claude, gemini or codex; got "${value ?? ''}"`, {
    details: { field: '--client', value },
  });
}

function renderChange(result: HookInstallResult, verb: 'install' | 'uninstall'): string {
  const label = clientLabel(result.client);
  const lines: string[] = [];
  const changed = result.files.filter((file) => file.changed);
  const action = verb === 'install' ? 'Installed' : 'Removed';
  if (changed.length === 0)
    lines.push(`${label}: nothing to change (${result.scope} scope; ${verb === 'install' ? 'already installed' : 'not installed'}).`);
  else lines.push(`${result.dryRun ? 'Would change' : action} ${label} hooks (${result.scope} scope):`);
  for (const file of changed) {
    lines.push(file.diff.trimEnd());
    if (file.backup && !result.dryRun) lines.push(`(previous content saved to ${file.backup})`);
  }
  if (result.createdBatonDir)
    lines.push(`${result.dryRun ? 'Would create' : 'Created'} .baton/ here: the hooks act only in a project that has it.`);
  for (const note of result.notes) lines.push(`Note: ${note}`);
  return lines.join('\n');
}

function renderStatus(status: HooksStatus): string {
  const lines = [
    `Workspace: ${status.workspace} (${status.active ? '.baton/ present: hooks act here' : 'no .baton/: hooks do nothing here'})`,
  ];
  for (const scope of status.scopes) {
    const where = `${scope.label}, ${scope.scope} (${scope.settingsFile})`;
    if (scope.unreadable) lines.push(`${where}: settings are not valid JSON (${scope.unreadable})`);
    else if (scope.installed.length === 0) lines.push(`${where}: not installed`);
    else lines.push(`${where}: ${scope.missing.length === 0 ? 'installed' : `incomplete, missing ${scope.missing.join(', ')}`}`);
    for (const unknown of scope.unknownEvents)
      lines.push(
        `  ${unknown.clientEvent} runs \`baton hook ${unknown.event}\`: not an event Baton knows (${HOOK_EVENTS.join(', ')}); it does nothing. \`baton hooks install --client ${scope.client}\` writes the right ones.`,
      );
    if (scope.featureOn === false && scope.installed.length > 0)
      lines.push('  [features] hooks = true is missing from config.toml: Codex will not run them');
    if (scope.client === 'codex' && scope.installed.length > 0 && (scope.untrusted?.length ?? 0) > 0)
      lines.push(
        `  Codex has not trusted ${scope.untrusted?.join(', ')}: it skips them silently. Start \`codex\`, open /hooks and trust them.`,
      );
    else if (scope.client === 'codex' && scope.installed.length > 0)
      lines.push('  trusted in config.toml ([hooks.state]); Codex asks again when a hook changed since');
  }
  if (status.problems.length > 0)
    lines.push('Last problems logged (.baton/hooks/hooks.log):', ...status.problems.map((line) => `  ${line}`));
  return lines.join('\n');
}
