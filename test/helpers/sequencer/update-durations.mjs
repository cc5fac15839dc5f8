// Writes durations.json (the order test files start in, longest first) from a Vitest JSON report,
// e.g. the one CI writes: node test/helpers/sequencer/update-durations.mjs .ci/vitest-results.json
// Each file's duration is its end minus its start, rounded to 100 ms; files the report lacks keep
// their old entry, and entries of files that no longer exist are dropped.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const report = process.argv[2];
if (!report) {
  console.error('usage: node test/helpers/sequencer/update-durations.mjs REPORT.json');
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '../../..');
const target = path.join(import.meta.dirname, 'durations.json');
const old = existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')) : {};
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
if (!Array.isArray(testResults)) {
  console.error(`${report}: no "testResults" list (not a Vitest JSON report?)`);
  process.exit(1);
}
const next = { ...old };
for (const { name, startTime, endTime } of testResults) {
  if (typeof startTime !== 'number' || typeof endTime !== 'number') continue;
  next[path.relative(root, name).split(path.sep).join('/')] = Math.round((endTime - startTime) / 100) * 100;
}
const kept = Object.entries(next).filter(([file]) => existsSync(path.join(root, file)));
kept.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
writeFileSync(target, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
console.log(`${target}: ${kept.length} files, longest ${kept[0]?.[0]} (${kept[0]?.[1]} ms)`);
