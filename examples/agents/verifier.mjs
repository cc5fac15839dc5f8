#!/usr/bin/env node
// Example helper (verifier) agent for `baton demo`: for each numbered failed criterion that
// names a file and a function ("README.md documents greet()"), it answers a grep command.
// Baton runs the commands and keeps them as the criteria's checks.
import { readFileSync } from 'node:fs';

const prompt = readFileSync(0, 'utf8');
const start = prompt.indexOf('**Failed Criteria:**');
const failed = prompt.slice(start, prompt.indexOf('**Agent Response:**', start));
const commands = [];
for (const [, n, text] of failed.matchAll(/^(\d+)\. (.*)$/gm)) {
  const file = text.match(/([\w./-]+\.\w+)/)?.[1];
  const fn = text.match(/(\w+)\(\)/)?.[1];
  if (file && fn) commands.push({ criterion: Number(n), command: `grep -q "${fn}(" ${file}`, description: text });
  else if (file) commands.push({ criterion: Number(n), command: `test -f ${file}`, description: text });
}
console.log(`Verifying ${commands.length} criteria without a check.`);
console.log(JSON.stringify({ commands }));
