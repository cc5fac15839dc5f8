#!/usr/bin/env node
// A slow agent that logs its own life: "start <attempt> <ms>" and "end <attempt> <ms> <how>" lines
// in LONG_AGENT_LOG. Attempt 1 works for a minute (the test kills its supervisor meanwhile); a
// SIGTERM ends it with an "end ... TERM" line. Later attempts write result.txt at once.
import { appendFileSync, writeFileSync } from 'node:fs';

const log = process.env.LONG_AGENT_LOG;
const attempt = process.env.BATON_ATTEMPT ?? '?';
const note = (line) => appendFileSync(log, `${line}\n`);
note(`start ${attempt} ${Date.now()} ${process.pid}`);
if (attempt === '1') {
  process.on('SIGTERM', () => {
    note(`end ${attempt} ${Date.now()} TERM`);
    process.exit(143);
  });
  setTimeout(() => {
    writeFileSync('result.txt', 'late\n');
    note(`end ${attempt} ${Date.now()} done`);
  }, 60_000);
} else {
  writeFileSync('result.txt', 'done\n');
  note(`end ${attempt} ${Date.now()} done`);
}
