#!/usr/bin/env node
// First run: records its pid and hangs (the test kills the supervisor mid-attempt). Later runs:
// write the result file and finish.
import { existsSync, writeFileSync } from 'node:fs';
import { readPrompt } from './log-prompt.mjs';

readPrompt('sleeper');
const marker = process.env.SLEEPER_MARKER;
if (marker && !existsSync(marker)) {
  writeFileSync(marker, String(process.pid));
  setTimeout(() => {}, 120_000);
} else {
  writeFileSync('result.txt', 'done\n');
  console.log('Finished after resume.');
}
