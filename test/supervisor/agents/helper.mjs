#!/usr/bin/env node
// A verifier agent: answers one `test -f FILE` command per numbered criterion naming a file.
import { readPrompt } from './log-prompt.mjs';

const prompt = readPrompt('helper');
const section = prompt.slice(prompt.indexOf('**Failed Criteria:**'), prompt.indexOf('**Agent Response:**'));
const commands = [];
for (const [, n, text] of section.matchAll(/^(\d+)\. (.*)$/gm)) {
  const file = text.match(/([\w./-]+\.\w+)/)?.[1];
  if (file) commands.push({ criterion: Number(n), command: `test -f ${file}`, description: text });
}
console.log('Verification plan:');
console.log(JSON.stringify({ commands }));
