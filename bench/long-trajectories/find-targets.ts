import type { RepoFile, SourceRepo } from './source-repo.js';

/** How passing None for the parameter fails on the first line that uses it. */
export type FailureKind = 'attribute' | 'subscript' | 'iterate' | 'len';

/**
 * A real function that provably crashes on the line an issue can point at when its first
 * parameter is None: the first body line that mentions the parameter dereferences it, and nothing
 * before that line can return, raise or branch. The "bug" is the missing None guard.
 */
export interface Target {
  file: RepoFile;
  func: string;
  cls: string | undefined;
  param: string;
  /** Number of required positional parameters after self (the call passes None for each). */
  arity: number;
  /** 1-based line of `def`. */
  defLine: number;
  /** 1-based first statement after the docstring: where the guard goes. */
  bodyLine: number;
  /** 1-based line that raises. */
  errLine: number;
  /** Indentation of the body. */
  indent: string;
  kind: FailureKind;
  /** For `attribute`: the attribute looked up. */
  attr: string | undefined;
}

const DEF = /^( {0,4})def ([A-Za-z_]\w*)\(/;
const BLOCKERS = /\b(return|raise|yield|try|with|if|elif|for|while|assert|del|global|nonlocal|lambda|await)\b|self\.|cls\./;

/** Every usable target in a repository, in file and line order. Pure. */
export function findTargets(repo: SourceRepo): Target[] {
  const out: Target[] = [];
  for (const file of repo.files) {
    if (file.lines.length < 150) continue;
    for (let i = 0; i < file.lines.length; i += 1) {
      const t = targetAt(file, i);
      if (t) out.push(t);
    }
  }
  return out;
}

function targetAt(file: RepoFile, i: number): Target | undefined {
  const lines = file.lines;
  const m = DEF.exec(lines[i] ?? '');
  if (!m) return undefined;
  const defIndent = m[1] ?? '';
  const func = m[2] as string;
  if (func.startsWith('__') || /^\s*@/.test(lines[i - 1] ?? '')) return undefined;
  const cls = defIndent ? enclosingClass(lines, i) : undefined;
  if (defIndent && !cls) return undefined;
  // The signature may span lines; it ends at the line closing the parenthesis with a colon.
  let sig = '';
  let end = i;
  for (; end < lines.length && end < i + 8; end += 1) {
    sig += `${lines[end]}\n`;
    if (balanced(sig) && /:\s*(#.*)?$/.test(lines[end] ?? '')) break;
  }
  if (end >= lines.length || end >= i + 8) return undefined;
  const inner = sig.slice(sig.indexOf('(') + 1, sig.lastIndexOf(')'));
  const params = splitTop(inner)
    .map((p) => p.trim())
    .filter(Boolean);
  const positional = params.filter((p) => p !== 'self' && p !== 'cls');
  if (defIndent && params[0] !== 'self') return undefined;
  const first = positional[0];
  if (!first || !/^[a-z_]\w*(\s*:[^=]+)?$/.test(first)) return undefined;
  const param = first.split(':')[0]?.trim() as string;
  const required = positional.filter((p) => !p.includes('=') && !p.startsWith('*'));
  if (required.length > 3 || positional.some((p) => p === '*' || p === '/')) return undefined;
  // Body: the docstring (if any) is skipped; the guard goes before the first statement.
  let j = end + 1;
  while (j < lines.length && (lines[j]?.trim() === '' || lines[j]?.trim().startsWith('#'))) j += 1;
  const indent = /^(\s*)/.exec(lines[j] ?? '')?.[1] ?? '';
  if (indent.length <= defIndent.length) return undefined;
  const quote = /^\s*[rbuRBU]?("""|''')/.exec(lines[j] ?? '')?.[1];
  if (quote) {
    const rest = (lines[j] ?? '').slice((lines[j] ?? '').indexOf(quote) + 3);
    if (!rest.includes(quote)) {
      j += 1;
      while (j < lines.length && !(lines[j] ?? '').includes(quote)) j += 1;
    }
    j += 1;
    while (j < lines.length && (lines[j]?.trim() === '' || lines[j]?.trim().startsWith('#'))) j += 1;
  }
  const bodyLine = j;
  const others = required.slice(1).map((p) => p.split(':')[0]?.trim() as string);
  const mentions = new RegExp(`\\b${param}\\b`);
  for (let k = bodyLine; k < lines.length && k < bodyLine + 8; k += 1) {
    const text = lines[k] ?? '';
    if (text.trim() === '' || text.trim().startsWith('#')) continue;
    if (!text.startsWith(indent) || /^\s/.test(text.slice(indent.length))) return undefined;
    if (!mentions.test(text)) {
      if (BLOCKERS.test(text) || others.some((o) => new RegExp(`\\b${o}\\b`).test(text)) || /[\\([{,]\s*$/.test(text)) return undefined;
      continue;
    }
    const failure = failureOn(text, param);
    if (!failure) return undefined;
    return {
      file,
      func,
      cls,
      param,
      arity: required.length,
      defLine: i + 1,
      bodyLine: bodyLine + 1,
      errLine: k + 1,
      indent,
      kind: failure.kind,
      attr: failure.attr,
    };
  }
  return undefined;
}

/** What `None` does on this line, judged by the first use of the parameter; undefined when unclear. */
function failureOn(text: string, param: string): { kind: FailureKind; attr?: string } | undefined {
  if (/None|isinstance|getattr|hasattr|callable|\bif\b|\bor\b|\band\b|\bnot\b|\btry\b|\blambda\b|\bis\b|==|!=|\bin\s+\(/.test(text))
    return undefined;
  if (/\\$|[([{,]\s*$/.test(text)) return undefined;
  const first = new RegExp(`\\b${param}\\b`).exec(text);
  if (!first) return undefined;
  const after = text.slice(first.index + param.length);
  const before = text.slice(0, first.index);
  // An instance built with __new__ has no attributes set by __init__: nothing on self may run first.
  if (/self\./.test(before)) return undefined;
  if (/^\.(?!_)([A-Za-z]\w*)/.test(after) && !/\.\s*$/.test(before))
    return { kind: 'attribute', attr: /^\.(\w+)/.exec(after)?.[1] as string };
  if (/^\[/.test(after) && !/\.\s*$/.test(before)) return { kind: 'subscript' };
  if (/\bfor\b[^:]*\bin\s+$/.test(before) && /^\s*[:)\]]/.test(after)) return { kind: 'iterate' };
  if (/\blen\($/.test(before) && /^\)/.test(after)) return { kind: 'len' };
  return undefined;
}

function enclosingClass(lines: string[], i: number): string | undefined {
  for (let k = i - 1; k >= 0; k -= 1) {
    const text = lines[k] ?? '';
    if (text.trim() === '' || /^\s/.test(text)) continue;
    return /^class ([A-Za-z_]\w*)/.exec(text)?.[1];
  }
  return undefined;
}

function balanced(s: string): boolean {
  let depth = 0;
  for (const ch of s) {
    if ('([{'.includes(ch)) depth += 1;
    else if (')]}'.includes(ch)) depth -= 1;
  }
  return depth === 0;
}

function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if ('([{'.includes(ch)) depth += 1;
    else if (')]}'.includes(ch)) depth -= 1;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((p) => p.replace(/\s+/g, ' '));
}

/** The error line Python prints for the failure. */
export function errorMessage(t: Target): { type: string; message: string } {
  switch (t.kind) {
    case 'attribute':
      return { type: 'AttributeError', message: `'NoneType' object has no attribute '${t.attr}'` };
    case 'subscript':
      return { type: 'TypeError', message: "'NoneType' object is not subscriptable" };
    case 'iterate':
      return { type: 'TypeError', message: "'NoneType' object is not iterable" };
    case 'len':
      return { type: 'TypeError', message: "object of type 'NoneType' has no len()" };
  }
}
