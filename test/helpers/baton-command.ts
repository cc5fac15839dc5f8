/**
 * How a test starts `baton` as a real child process. `npm test` builds before the suite, so there
 * the built bin/baton.js runs (what a user runs: the bundled CLI, started in about a third of the
 * time tsx takes to load the sources). A test file run alone after an edit to src/, without a
 * build, runs the same CLI from source through tsx instead: dist/ counts as built only when its
 * bundle is newer than every file under src/.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Written last by `npm run build` (scripts/bundle-cli.mjs), after tsc has emitted dist/. */
const BUNDLE_ENTRY = path.join(ROOT, 'dist', 'cli-bundle', 'index.js');
// tsx resolved from this checkout: `--import tsx` would resolve from the child's working folder.
const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const SOURCE_ENTRY = `import { main } from ${JSON.stringify(path.join(ROOT, 'src', 'cli', 'index.ts'))};
process.exitCode = await main(['node', 'baton', ...process.argv.slice(1)]);`;

export interface BatonCommand {
  /** The program to spawn (this Node). */
  command: string;
  /** Arguments before baton's own. */
  args: string[];
  /** True for the built bin, false for the sources through tsx. */
  built: boolean;
}

let chosen: BatonCommand | undefined;

/** The command line that runs `baton` (then its arguments), decided once per test file. */
export function batonCommand(): BatonCommand {
  chosen ??= builtIsFresh()
    ? { command: process.execPath, args: [path.join(ROOT, 'bin', 'baton.js')], built: true }
    : { command: process.execPath, args: ['--import', TSX_LOADER, '--input-type=module', '-e', SOURCE_ENTRY], built: false };
  return chosen;
}

function builtIsFresh(): boolean {
  if (!existsSync(BUNDLE_ENTRY)) return false;
  const builtAt = statSync(BUNDLE_ENTRY).mtimeMs;
  for (const entry of readdirSync(path.join(ROOT, 'src'), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && statSync(path.join(entry.parentPath, entry.name)).mtimeMs > builtAt) return false;
  }
  return true;
}
