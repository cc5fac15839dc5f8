import { access, chmod, constants, lstat, realpath, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BatonError } from '../errors/index.js';

/**
 * Refuses a settings file Baton must not write: read-only (no write bit for anyone, or not
 * writable by this user). Nothing is written then; the message names the file and the way out.
 */
export async function assertWritable(file: string): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (info === undefined) return;
  const writable =
    (info.mode & 0o222) !== 0 &&
    (await access(file, constants.W_OK).then(
      () => true,
      () => false,
    ));
  if (writable) return;
  throw new BatonError(
    'INPUT_INVALID',
    `${file} is read-only (mode ${(info.mode & 0o777).toString(8)}); nothing was changed. Make it writable (chmod u+w) to let Baton change it, or edit it yourself.`,
    { details: { file } },
  );
}

/**
 * Replaces a settings file's content atomically, keeping what the user chose for it: its mode
 * (a mode-600 file holding a key stays 600) and, when it is a symbolic link (dotfiles), the link:
 * the file it points at is written.
 */
export async function writeSettingsFile(file: string, text: string): Promise<void> {
  const target = await realTarget(file);
  const mode = await stat(target).then(
    (info) => info.mode & 0o7777,
    () => undefined,
  );
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  await writeFile(temporary, text, mode === undefined ? {} : { mode });
  if (mode !== undefined) await chmod(temporary, mode);
  await rename(temporary, target);
}

/** Removes a file install created, and its folder when install created that too and it is empty. */
export async function removeCreated(file: string, createdDir: boolean): Promise<void> {
  await unlink(file).catch(() => undefined);
  if (createdDir) await rmdir(path.dirname(file)).catch(() => undefined);
}

async function realTarget(file: string): Promise<string> {
  const link = await lstat(file).catch(() => undefined);
  if (!link?.isSymbolicLink()) return file;
  return realpath(file).catch(() => file);
}
