/**
 * The order test files start in: the longest first, by the durations in durations.json (measured
 * idle, milliseconds per file), so no long file starts last and leaves one worker running alone at
 * the end of the suite. Files not in the list start after the listed ones, larger files first
 * (Vitest's own rule for files it has no timing of). Refresh the list from a JSON report:
 * `node test/helpers/sequencer/update-durations.mjs .ci/vitest-results.json`.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// A URL, not import.meta.dirname: Vitest bundles its config (and this file with it) elsewhere.
const DURATIONS = fileURLToPath(new URL('durations.json', import.meta.url));

/** The checked-in durations, keyed by the file's path from the repository root (`test/...`). */
export function readDurations(file = DURATIONS): Map<string, number> {
  const list = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const durations = new Map<string, number>();
  for (const [name, ms] of Object.entries(list)) {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
      throw new Error(`${file}: "${name}" must be a duration in milliseconds, got ${JSON.stringify(ms)}`);
    durations.set(name, ms);
  }
  return durations;
}

/** `files` (absolute paths under `root`) longest first; unlisted files after, larger first. */
export function longestFirst<T>(
  files: readonly T[],
  pathOf: (file: T) => string,
  root: string,
  durations: ReadonlyMap<string, number>,
): T[] {
  const ranked = files.map((file) => {
    const at = pathOf(file);
    return { file, ms: durations.get(path.relative(root, at).split(path.sep).join('/')), size: sizeOf(at) };
  });
  ranked.sort((a, b) => {
    if (a.ms !== undefined && b.ms !== undefined) return b.ms - a.ms;
    if (a.ms !== undefined) return -1;
    if (b.ms !== undefined) return 1;
    return b.size - a.size;
  });
  return ranked.map((r) => r.file);
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Vitest's `sequence.sequencer`: sharding as Vitest does it, order by `longestFirst`. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longestFirst(files, (spec) => spec.moduleId, this.ctx.config.root, readDurations());
  }
}
