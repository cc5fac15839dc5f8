// A hash of everything the build reads from this repository (sources, build scripts, manifests,
// compiler settings). The build writes it to dist/.build-inputs when it ends; the test helper that
// packs the tarball reuses dist/ when the hash of the sources now is the same (the build that
// `npm test` runs just before vitest) instead of building a second time.
// `node scripts/build-inputs-hash.mjs` prints it.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD_INPUTS = ['src', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

export const BUILD_STAMP = 'dist/.build-inputs';

export async function buildInputsHash(root = ROOT) {
  const hash = createHash('sha256');
  for (const entry of BUILD_INPUTS) {
    for (const file of await listFiles(path.join(root, entry))) {
      hash.update(path.relative(root, file)).update('\0');
      hash.update(await readFile(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

async function listFiles(target) {
  const entries = await readdir(target, { withFileTypes: true }).catch((error) => {
    if (error.code === 'ENOTDIR') return undefined;
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (!entries) return [target];
  const files = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(target, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(full)));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await buildInputsHash()}\n`);
}
