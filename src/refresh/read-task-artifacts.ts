import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../errors/index.js';
import { resolveInsideWorkspace } from './safe-path.js';
import type { TaskArtifacts } from './types.js';

/** @default 64_000: characters read from one artifact file before cutting. */
export const DEFAULT_MAX_FILE_CHARS = 64_000;

export interface ReadTaskArtifactsOptions {
  /** Read tracking logs and artifact contents, not only their names. @default false */
  includeContents?: boolean;
  /** Problems met on the way (unreadable file, refused symlink); reading continues. */
  warnings: string[];
}

/**
 * Reads `.agent/tasks/{id}_*` (or `.agent/tasks/{id}`): README.md, tracking/*.md and the names (and
 * optionally contents) of artifacts/*. Every path is resolved inside the workspace; a symlink that
 * leaves it is refused with a warning. Undefined when the task has no folder.
 */
export async function readTaskArtifacts(
  workspace: string,
  taskId: string,
  options: ReadTaskArtifactsOptions,
): Promise<TaskArtifacts | undefined> {
  const tasksDir = path.join('.agent', 'tasks');
  const entries = await readdir(path.join(workspace, tasksDir)).catch(() => [] as string[]);
  const name = entries.find((entry) => entry === taskId) ?? entries.find((entry) => entry.startsWith(`${taskId}_`));
  if (!name) return undefined;
  const relDir = path.join(tasksDir, name);
  const dir = await safe(workspace, relDir, options.warnings);
  if (!dir) return undefined;
  const [readme, tracking, artifacts] = await Promise.all([
    readText(workspace, path.join(relDir, 'README.md'), options.warnings, true),
    listDir(workspace, path.join(relDir, 'tracking'), options.warnings),
    listDir(workspace, path.join(relDir, 'artifacts'), options.warnings),
  ]);
  const trackingLogs = await Promise.all(
    tracking
      .filter((file) => file.endsWith('.md'))
      .sort()
      .map(async (file) => ({
        name: file,
        content: options.includeContents ? await readText(workspace, path.join(relDir, 'tracking', file), options.warnings) : undefined,
      })),
  );
  const artifactList = await Promise.all(
    artifacts.sort().map(async (file) => {
      const rel = path.join(relDir, 'artifacts', file);
      const real = await safe(workspace, rel, options.warnings);
      const info = real ? await stat(real).catch(() => undefined) : undefined;
      if (!real || !info?.isFile()) return undefined;
      return {
        name: file,
        bytes: info.size,
        content: options.includeContents ? await readText(workspace, rel, options.warnings) : undefined,
      };
    }),
  );
  return {
    dir: relDir,
    readme,
    trackingLogs,
    artifacts: artifactList.filter((item): item is NonNullable<typeof item> => item !== undefined),
  };
}

async function safe(workspace: string, rel: string, warnings: string[]): Promise<string | undefined> {
  try {
    return await resolveInsideWorkspace(workspace, rel);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') warnings.push(errorMessage(error));
    return undefined;
  }
}

async function listDir(workspace: string, rel: string, warnings: string[]): Promise<string[]> {
  const real = await safe(workspace, rel, warnings);
  if (!real) return [];
  try {
    return await readdir(real);
  } catch (error) {
    warnings.push(`Cannot list ${rel}: ${errorMessage(error)}`);
    return [];
  }
}

async function readText(workspace: string, rel: string, warnings: string[], optional = false): Promise<string | undefined> {
  const real = await safe(workspace, rel, warnings);
  if (!real) return undefined;
  try {
    const text = await readFile(real, 'utf8');
    return text.length > DEFAULT_MAX_FILE_CHARS
      ? `${text.slice(0, DEFAULT_MAX_FILE_CHARS)}\n[cut at ${DEFAULT_MAX_FILE_CHARS} characters]`
      : text;
  } catch (error) {
    if (!(optional && (error as NodeJS.ErrnoException).code === 'ENOENT')) {
      warnings.push(`Cannot read ${rel}: ${errorMessage(error)}`);
    }
    return undefined;
  }
}
