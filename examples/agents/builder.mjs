#!/usr/bin/env node
// Example coding agent for `baton demo`. It reads everything from its prompt (stdin; the same
// text is in $BATON_PROMPT_FILE):
// - the module to write, from the Task Description ("Create X.js exporting f(name) that returns '…'"),
//   or a line to add to a file ("Append the line '…' to FILE.");
// - on a retry, what to fix, from the RETRY CONTEXT block: files named by failed `test -f FILE`
//   checks, and text a failed `grep -q "TEXT" FILE` check looked for.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const prompt = readFileSync(0, 'utf8');
const done = [];

const description = section(prompt, '## Task Description');
const spec = description.match(/Create (\S+\.js) exporting (\w+)\(name\) that returns '([^']*)'/);
if (spec) {
  const [, file, fn, template] = spec;
  // The template literal placeholder is written into the generated module on purpose.
  const body = template.replace('<name>', '$' + '{name}');
  writeFileSync(file, `exports.${fn} = (name) => \`${body}\`;\n`);
  done.push(`wrote ${file} with ${fn}()`);
}

// "Append the line '…' to FILE.": once, so a re-run on a base that has it already changes nothing.
const append = description.match(/Append the line '([^']*)' to (\S+)\./);
if (append) {
  const [, line, file] = append;
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  if (!lines.includes(line)) appendFileSync(file, `${line}\n`);
  const conflict = block(prompt, 'MERGE CONFLICT CONTEXT');
  done.push(`added "${line}" to ${file}${conflict ? ' again, on the new base the merge conflict context named' : ''}`);
}

const retry = block(prompt, 'RETRY CONTEXT');
if (retry) {
  for (const [, file] of retry.matchAll(/check failed: test -f (\S+)/g)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `// ${file}: created because the RETRY CONTEXT said this check failed\n`);
    done.push(`created ${file} (from the retry context)`);
  }
  for (const [, text, file] of retry.matchAll(/check failed: grep -q "([^"]+)" (\S+)/g)) {
    appendFileSync(file, `${existsSync(file) ? '\n' : '# Project\n\n'}Documents ${text}name) — added from the retry context.\n`);
    done.push(`documented "${text}" in ${file} (from the retry context)`);
  }
}

console.log(done.length > 0 ? `Done: ${done.join('; ')}.` : 'Nothing to do.');

function section(text, heading) {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) return '';
  const rest = text.slice(start + heading.length + 1);
  const end = rest.indexOf('\n## ');
  return end < 0 ? rest : rest.slice(0, end);
}

function block(text, name) {
  const start = text.indexOf(`--- ${name} ---`);
  if (start < 0) return '';
  const end = text.indexOf('--- END CONTEXT ---', start);
  return text.slice(start, end < 0 ? undefined : end);
}
