/**
 * `npm pack` of this repository, once per content: the tarball a user would install, built from
 * the sources as they are now (not from whatever dist/ holds). The build runs in a staging copy so
 * that the repository's own dist/, which other tests run, is never rewritten under them; the
 * tarball is cached in the OS temp folder under a hash of everything that goes into it, so a second
 * test file, or a second run with the same sources, reuses it. When the repository's dist/ was built
 * after every input last changed (`npm test` builds before the suite, so in a CI clone it was), that
 * build is packed as is (`npm pack --ignore-scripts`) rather than built a second time in the copy.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { withFileLock } from './consumer-project-lock.js';

/** The repository this helper belongs to. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where packed tarballs and consumer projects are kept between runs. */
export const CONSUMER_CACHE_DIR = path.join(tmpdir(), `baton-consumer-${process.getuid?.() ?? 'user'}`);

/** What the tarball is made from: the build's inputs and everything `files` ships. */
const PACK_INPUTS = [
  'src',
  'bin',
  'docs',
  'examples',
  'scripts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
];

/** The build's last output (scripts/bundle-cli.mjs writes it last): a dist/ without it is a build that stopped. */
const LAST_BUILD_OUTPUT = path.join('dist', 'cli-bundle', 'metafile.json');

let packed: Promise<PackedBaton> | undefined;

export interface PackedBaton {
  /** Absolute path of the .tgz. */
  tarball: string;
  /** Hash of the sources it was packed from. */
  hash: string;
  /** package.json's version. */
  version: string;
}

/** Packs the repository (once per process, and once per content across processes). */
export function packBaton(): Promise<PackedBaton> {
  packed ??= packOnce();
  return packed;
}

async function packOnce(): Promise<PackedBaton> {
  const hash = await hashInputs();
  const { version } = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  const tarball = path.join(CONSUMER_CACHE_DIR, `agent-baton-${hash}.tgz`);
  if (existsSync(tarball)) return { tarball, hash, version };
  await withFileLock(path.join(CONSUMER_CACHE_DIR, `pack-${hash}.lock`), async () => {
    if (existsSync(tarball)) return;
    const stage = path.join(CONSUMER_CACHE_DIR, `stage-${hash}`);
    await rm(stage, { recursive: true, force: true });
    await mkdir(stage, { recursive: true });
    for (const entry of PACK_INPUTS) {
      const from = path.join(REPO_ROOT, entry);
      if (existsSync(from)) await cp(from, path.join(stage, entry), { recursive: true });
    }
    await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
    // `npm pack` runs `prepare` (the build) first, as it does for a publish; a fresh dist/ is that build already.
    const built = await distBuiltAfterInputs();
    if (built) await cp(path.join(REPO_ROOT, 'dist'), path.join(stage, 'dist'), { recursive: true });
    const args = ['pack', '--json', '--pack-destination', stage, ...(built ? ['--ignore-scripts'] : [])];
    const result = await execa('npm', args, { cwd: stage, reject: false, all: true });
    if (result.exitCode !== 0) throw new Error(`npm pack failed (exit ${result.exitCode}):\n${result.all}`);
    const written = (await readdir(stage)).find((name) => name.endsWith('.tgz'));
    if (!written) throw new Error(`npm pack wrote no tarball in ${stage}:\n${result.all}`);
    await rename(path.join(stage, written), tarball);
    await rm(stage, { recursive: true, force: true });
  });
  return { tarball, hash, version };
}

/**
 * Whether the repository's dist/ is a complete build (its last output is there) whose every file is
 * newer than every input: built from the inputs as they are now.
 */
async function distBuiltAfterInputs(): Promise<boolean> {
  if (!existsSync(path.join(REPO_ROOT, LAST_BUILD_OUTPUT))) return false;
  const mtimes = async (entries: readonly string[]) => {
    const files = (await Promise.all(entries.map((entry) => listFiles(path.join(REPO_ROOT, entry))))).flat();
    return Promise.all(files.map(async (file) => (await stat(file)).mtimeMs));
  };
  const [inputs, outputs] = await Promise.all([mtimes(PACK_INPUTS), mtimes(['dist'])]);
  return outputs.length > 0 && Math.max(...inputs) < Math.min(...outputs);
}

/** A hash over the path and content of every file the tarball is made from. */
async function hashInputs(): Promise<string> {
  const hash = createHash('sha256');
  for (const entry of PACK_INPUTS) {
    for (const file of await listFiles(path.join(REPO_ROOT, entry))) {
      hash.update(path.relative(REPO_ROOT, file)).update('\0');
      hash.update(await readFile(file)).update('\0');
    }
  }
  return hash.digest('hex').slice(0, 16);
}

async function listFiles(target: string): Promise<string[]> {
  if (!existsSync(target)) return [];
  const entries = await readdir(target, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (!entries) return [target];
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(target, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(full)));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}
