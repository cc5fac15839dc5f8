#!/usr/bin/env node
// Rate-limited on its first run (reset in RESET_IN_MS), fine afterwards: a quota that comes back.
import { existsSync, writeFileSync } from 'node:fs';
import { readPrompt } from './log-prompt.mjs';

readPrompt('limited-once');
const marker = process.env.ONCE_MARKER;
if (marker && !existsSync(marker)) {
  writeFileSync(marker, 'limited');
  const resetAt = new Date(Date.now() + Number(process.env.RESET_IN_MS ?? 300)).toISOString();
  console.log(JSON.stringify({ outcome: 'rate_limited', resetAt }));
  process.exit(1);
}
writeFileSync('draft.txt', 'after the reset\n');
console.log('Done after the reset.');
