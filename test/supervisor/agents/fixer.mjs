#!/usr/bin/env node
// Writes a draft on its first try; on a retry it creates exactly the files named by the failed
// `test -f FILE` checks in the RETRY CONTEXT it was given (it knows no path by itself).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readPrompt } from './log-prompt.mjs';

const prompt = readPrompt('fixer');
writeFileSync('draft.txt', `draft for attempt ${process.env.BATON_ATTEMPT}\n`);
if (prompt.startsWith('--- RETRY CONTEXT ---')) {
  const block = prompt.slice(0, prompt.indexOf('--- END CONTEXT ---'));
  for (const [, file] of block.matchAll(/check failed: test -f (\S+)/g)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'fixed from the retry context\n');
  }
}
console.log('Wrote the draft.');
