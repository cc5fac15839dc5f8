import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Command and args that start `baton`: the built bin/baton.js when dist holds an up-to-date build
 * of the MCP and refresh code, otherwise the same CLI run from source through tsx.
 */
export function batonCommand(): { command: string; args: string[]; built: boolean } {
  const built = path.join(ROOT, 'dist/cli/commands/mcp/action.js');
  const fresh =
    existsSync(built) &&
    statSync(built).mtimeMs >= Math.max(newestMtime(path.join(ROOT, 'src/mcp')), newestMtime(path.join(ROOT, 'src/refresh')));
  if (fresh) return { command: process.execPath, args: [path.join(ROOT, 'bin/baton.js')], built: true };
  return { command: process.execPath, args: ['--import', 'tsx', path.join(ROOT, 'test/mcp/helpers/baton-entry.ts')], built: false };
}

export { ROOT };
