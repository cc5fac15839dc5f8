import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';

/** A git object as stored: its type and its content. */
export interface GitObject {
  type: 'commit' | 'tree' | 'blob' | 'tag';
  content: Buffer;
}

const TYPES = [undefined, 'commit', 'tree', 'blob', 'tag'] as const;

/**
 * The objects of a git pack made without deltas (`pack-objects --window=0 --no-reuse-delta`), or
 * undefined when it is not such a pack (a delta, a bad checksum, cut short). Why read packs here:
 * a worker takes in every tip the others push (SharedTip), three or more per task, and a git
 * process per tip cost more CPU on a busy machine than the fetch it replaced.
 */
export function objectsOfPack(pack: Uint8Array): GitObject[] | undefined {
  const bytes = Buffer.from(pack.buffer, pack.byteOffset, pack.byteLength);
  if (bytes.length < 32 || bytes.toString('latin1', 0, 4) !== 'PACK' || bytes.readUInt32BE(4) !== 2) return undefined;
  const end = bytes.length - 20;
  if (!createHash('sha1').update(bytes.subarray(0, end)).digest().equals(bytes.subarray(end))) return undefined;
  const objects: GitObject[] = [];
  let at = 12;
  try {
    for (let left = bytes.readUInt32BE(8); left > 0; left--) {
      let byte = bytes[at++]!;
      const type = TYPES[(byte >> 4) & 7];
      let size = byte & 15;
      for (let shift = 4; byte & 0x80; shift += 7) {
        byte = bytes[at++]!;
        size += (byte & 0x7f) * 2 ** shift;
      }
      // Deltas (types 6 and 7) need their bases: such a pack is left to a fetch.
      if (!type || at >= end) return undefined;
      const inflated = inflateSync(bytes.subarray(at, end), { info: true }) as unknown as {
        buffer: Buffer;
        engine: { bytesWritten: number };
      };
      if (inflated.buffer.length !== size) return undefined;
      at += inflated.engine.bytesWritten;
      objects.push({ type, content: inflated.buffer });
    }
  } catch {
    return undefined;
  }
  return at === end ? objects : undefined;
}

/** The object's name (SHA-1) and its bytes as git hashes and stores them. */
function stored(object: GitObject): { id: string; whole: Buffer } {
  const whole = Buffer.concat([Buffer.from(`${object.type} ${object.content.length}\0`), object.content]);
  return { id: createHash('sha1').update(whole).digest('hex'), whole };
}

/** Files written aside are named apart from other processes' and from an earlier process's leftovers. */
const ASIDE = `tmp_obj_baton_${process.pid}_${randomBytes(4).toString('hex')}_`;
let asides = 0;
/** Fan-out folders (`objects/ab`) this process made or found: at most 256 per repository. */
const folders = new Set<string>();

/**
 * Writes `objects` as loose objects into `objectsDir` (a repository's `objects/`), as git does:
 * compressed at git's level for loose objects (core.looseCompression, 1), read-only, written
 * aside and renamed into place. One already there is replaced by the same bytes, which spares a
 * look per object (this runs for every tip another worker pushes, on a machine where each file
 * operation counts); each fan-out folder is made once. Returns the names written.
 */
export async function writeLooseObjects(objectsDir: string, objects: readonly GitObject[]): Promise<Set<string>> {
  const names = new Set<string>();
  await Promise.all(
    objects.map(async (object) => {
      const { id, whole } = stored(object);
      names.add(id);
      const dir = path.join(objectsDir, id.slice(0, 2));
      const aside = path.join(dir, `${ASIDE}${++asides}`);
      const bytes = deflateSync(whole, { level: 1 });
      const write = () => writeFile(aside, bytes, { mode: 0o444, flag: 'wx' });
      if (!folders.has(dir)) await mkdir(dir, { recursive: true });
      // A folder git removed since (gc prunes empty ones) is made again.
      await write().catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await mkdir(dir, { recursive: true });
        await write();
      });
      folders.add(dir);
      await rename(aside, path.join(dir, id.slice(2)));
    }),
  );
  return names;
}
