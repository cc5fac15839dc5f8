import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withFileLock } from '../consumer-project-lock.js';
import { runProcess } from './run-process.js';
import { AGENT_CLI_PACKAGES, type ClientName } from './versions.js';

/** Where pinned clients are installed: `$BATON_CLIENTS_CACHE`, else `~/.cache/baton-clients` (never this package's dependencies). */
export function clientCache(): string {
  return process.env.BATON_CLIENTS_CACHE ?? path.join(os.homedir(), '.cache', 'baton-clients');
}

/** A pinned client's folder in the cache, e.g. `~/.cache/baton-clients/@google+gemini-cli@0.61.0`. */
export function clientDir(name: ClientName): string {
  const { pkg, version } = AGENT_CLI_PACKAGES[name];
  return path.join(clientCache(), `${pkg.replace('/', '+')}@${version}`);
}

export function clientBin(name: ClientName): string {
  return path.join(clientDir(name), 'node_modules', '.bin', AGENT_CLI_PACKAGES[name].bin);
}

/** Either the client's bin, or the reason it is not available (for a visible skip). */
export type EnsuredClient = { bin: string; reason?: undefined } | { bin?: undefined; reason: string };

const installs = new Map<ClientName, Promise<EnsuredClient>>();

/**
 * Installs a pinned client into the cache once (`npm install` in its own folder) and returns its
 * bin, or the reason it could not be installed. Concurrent calls share one install: in one process
 * through a shared promise, across test forks through a file lock.
 */
export function ensureClient(name: ClientName): Promise<EnsuredClient> {
  const bin = clientBin(name);
  if (existsSync(bin)) return Promise.resolve({ bin });
  let install = installs.get(name);
  if (!install) {
    // Test files run in parallel forks: one process installs, the others wait for it and find the bin.
    install = withFileLock(`${clientDir(name)}.lock`, () => (existsSync(bin) ? Promise.resolve({ bin }) : installClient(name)));
    installs.set(name, install);
  }
  return install;
}

async function installClient(name: ClientName): Promise<EnsuredClient> {
  const dir = clientDir(name);
  const { pkg, version } = AGENT_CLI_PACKAGES[name];
  try {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(path.join(dir, 'package.json'))) writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
  } catch (error) {
    return { reason: `cannot create ${dir}: ${(error as Error).message}` };
  }
  const run = await runProcess('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `${pkg}@${version}`], {
    cwd: dir,
    timeoutMs: 600_000,
  });
  const bin = clientBin(name);
  if (run.code !== 0 || !existsSync(bin)) {
    return {
      reason: `npm install ${pkg}@${version} in ${dir} failed (exit ${run.code}${run.timedOut ? ', timed out' : ''}): ${run.stderr.slice(-400)}`,
    };
  }
  return { bin };
}

/**
 * Ensures several clients for a suite's `beforeAll`: the bins that are available, and one
 * console warning per client that is not, naming the reason (so a skip is never silent).
 */
export async function ensureClients<N extends ClientName>(names: readonly N[], label: string): Promise<Partial<Record<N, string>>> {
  const found: Partial<Record<N, string>> = {};
  for (const name of names) {
    const { bin, reason } = await ensureClient(name);
    if (bin) found[name] = bin;
    else console.warn(`[${label}] SKIPPED ${AGENT_CLI_PACKAGES[name].title}: ${reason}`);
  }
  return found;
}
