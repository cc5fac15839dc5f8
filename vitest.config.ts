import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/helpers/sequencer/index.js';

/**
 * Test files run in parallel forks. Vitest's default (cpus - 1) is one fork on a 2-core machine,
 * though most of this suite waits on child processes (agent CLIs, git, npm) rather than computing;
 * `BATON_TEST_WORKERS` overrides the count. The longest files start first (their checked-in
 * durations: test/helpers/sequencer/durations.json), so the run does not end on one long file.
 * `BATON_TEST_ISOLATE=0` runs the files of a fork in one module graph (Vitest's `isolate: false`):
 * measured on 25 files (test/refresh, tokens, faults; 3 workers, load ~11) it cut import time from
 * ~30 s to ~12 s and the run's CPU by ~20 %; off by default until a full suite has shown that no
 * file leaks state into the next.
 */
const workers = Number(process.env.BATON_TEST_WORKERS ?? 3);
const isolate = process.env.BATON_TEST_ISOLATE !== '0';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    isolate,
    maxWorkers: Number.isInteger(workers) && workers > 0 ? workers : 3,
    sequence: { sequencer: LongestFirstSequencer },
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.ci/vitest-results.json' }]] : ['default'],
  },
});
