/**
 * Reading a pack without deltas and writing its objects loose (src/isolation/loose-objects.ts),
 * against real git: what git packs, this reads; what this writes, git reads and checks.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { objectsOfPack, writeLooseObjects } from '../../src/isolation/loose-objects.js';

const base = mkdtempSync(path.join(tmpdir(), 'baton-loose-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const git = (cwd: string, args: string[], input?: string | Buffer) => execFileSync('git', args, { cwd, input, maxBuffer: 64 << 20 });
const text = (cwd: string, ...args: string[]) => git(cwd, args).toString('utf8').trim();

/**
 * A repository with a first commit, and a second that changes a large file and adds others; and
 * a clone of it made between the two (it has the first commit only).
 */
function history(name: string): { dir: string; clone: string; first: string; second: string } {
  const dir = path.join(base, name);
  git(base, ['init', '-q', '-b', 'main', dir]);
  const big = Array.from({ length: 4000 }, (_, i) => `line ${i} of a file large enough to be stored as a delta`).join('\n');
  writeFileSync(path.join(dir, 'big.txt'), `${big}\n`);
  git(dir, ['add', '-A']);
  git(dir, ['-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-qm', 'first']);
  const first = text(dir, 'rev-parse', 'HEAD');
  const clone = path.join(base, `${name}-clone`);
  git(base, ['clone', '-q', '--no-local', dir, clone]);
  writeFileSync(path.join(dir, 'big.txt'), `${big}\none more line\n`);
  writeFileSync(path.join(dir, 'new file.txt'), 'new\n');
  writeFileSync(path.join(dir, 'bytes.bin'), Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
  git(dir, ['add', '-A']);
  git(dir, ['-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-qm', 'second']);
  return { dir, clone, first, second: text(dir, 'rev-parse', 'HEAD') };
}

const packOf = (dir: string, tip: string, not: string, ...flags: string[]) =>
  git(dir, ['pack-objects', '--stdout', '--revs', '-q', ...flags], `${tip}\n^${not}\n`);

describe('loose objects from a shared pack', () => {
  it('writes what git packed without deltas so that git reads the new commit whole', async () => {
    const { dir, clone, first, second } = history('whole');
    const pack = packOf(dir, second, first, '--window=0', '--no-reuse-delta');
    const objects = objectsOfPack(pack);
    // The commit, its tree, and the three changed or new files.
    expect(objects?.map((o) => o.type).sort()).toEqual(['blob', 'blob', 'blob', 'commit', 'tree']);
    // The clone, which has only the first commit, takes them in.
    expect(() => git(clone, ['cat-file', '-e', second])).toThrow();
    const names = await writeLooseObjects(path.join(clone, '.git', 'objects'), objects!);
    expect(names.has(second)).toBe(true);
    git(clone, ['update-ref', 'refs/heads/taken', second]);
    git(clone, ['fsck', '--strict', '--no-dangling']);
    expect(git(clone, ['show', `${second}:bytes.bin`]).equals(Buffer.from(Array.from({ length: 256 }, (_, i) => i)))).toBe(true);
    expect(text(clone, 'show', `${second}:new file.txt`)).toBe('new');
    // Written again: left alone (git's objects are read-only).
    expect((await writeLooseObjects(path.join(clone, '.git', 'objects'), objects!)).size).toBe(5);
  });

  it('leaves a pack with deltas, a damaged one or something else to a fetch', () => {
    const { dir, first, second } = history('deltas');
    // Packed with the first commit's objects too, the changed large file is stored as a delta.
    const withDeltas = git(dir, ['pack-objects', '--stdout', '--revs', '-q'], `${second}\n${first}\n`);
    expect(objectsOfPack(withDeltas)).toBeUndefined();
    const pack = packOf(dir, second, first, '--window=0', '--no-reuse-delta');
    const damaged = Buffer.from(pack);
    damaged[40] = damaged[40]! ^ 0xff;
    expect(objectsOfPack(damaged)).toBeUndefined();
    expect(objectsOfPack(pack.subarray(0, pack.length - 30))).toBeUndefined();
    expect(objectsOfPack(Buffer.from('not a pack at all, but long enough'))).toBeUndefined();
  });
});
