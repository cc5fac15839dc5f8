/**
 * The `@example`s of src/ type-checked against the real signatures. An example is a fragment: it
 * uses names it does not define (`ledger`, `task`, a framework's `generateText`). Each becomes a
 * virtual file beside its source; a first pass finds the names it lacks, which are imported from
 * the example's own file or the package's root (src/index.ts) when they export them, and declared
 * `any` otherwise. The second pass's errors are real: an option key that does not exist (an object
 * literal is checked against the parameter's type even among `any`s), a wrong argument count, a
 * property the result does not have.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface JsDocExample {
  /** Source file, relative to the repository. */
  file: string;
  /** 1-based line of the `@example` tag. */
  line: number;
  /** 1-based line of the example's first line of code (the tag's own line when the code follows the tag). */
  firstLine: number;
  code: string;
}

/** Every `@example` of the .ts files under `dir`: the comment lines after the tag, up to the next tag or the comment's end. */
export function jsDocExamples(root: string, dir = 'src'): JsDocExample[] {
  const out: JsDocExample[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...jsDocExamples(root, rel));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
      out.push(...examplesOf(rel, readFileSync(path.join(root, rel), 'utf8')));
  }
  return out;
}

function examplesOf(file: string, source: string): JsDocExample[] {
  const lines = source.split('\n');
  const out: JsDocExample[] = [];
  lines.forEach((line, i) => {
    const tag = /^\s*\*\s*@example\b(.*)$/.exec(line);
    if (!tag) return;
    const code: string[] = tag[1]?.trim() ? [tag[1].trim()] : [];
    for (let j = i + 1; j < lines.length; j += 1) {
      const text = lines[j] as string;
      if (/^\s*\*\//.test(text) || /^\s*\*\s*@\w+/.test(text)) break;
      code.push(text.replace(/^\s*\* ?/, '').replace(/\s*\*\/\s*$/, ''));
      if (/\*\/\s*$/.test(text)) break;
    }
    out.push({ file, line: i + 1, firstLine: tag[1]?.trim() ? i + 1 : i + 2, code: `${code.join('\n').trim()}\n` });
  });
  return out;
}

const MISSING_NAME = new Set([2304, 18004, 2552]);

/** Type-checks the examples; returns one message per error, `file:line: message` at the example's line. */
export function checkJsDocExamples(root: string, examples: readonly JsDocExample[]): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!parsed) throw new Error('tsconfig.json could not be read');
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, noUnusedLocals: false };
  const virtualName = (e: JsDocExample) => path.join(root, `${e.file.replace(/\.ts$/, '')}.__example_L${e.line}.ts`);
  const index = path.join(root, 'src', 'index.ts');
  const compile = (texts: Map<string, string>, old?: ts.Program) => {
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (name, version, ...rest) => {
      const text = texts.get(path.resolve(name));
      return text !== undefined ? ts.createSourceFile(name, text, version) : getSourceFile(name, version, ...rest);
    };
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (name) => texts.has(path.resolve(name)) || fileExists(name);
    return ts.createProgram({ rootNames: [index, ...texts.keys()], options, host, ...(old ? { oldProgram: old } : {}) });
  };
  const first = new Map(examples.map((e) => [virtualName(e), `${e.code}export {};\n`]));
  const program = compile(first);
  const checker = program.getTypeChecker();
  const exportsOf = (file: string) => {
    const sf = program.getSourceFile(file);
    const symbol = sf && checker.getSymbolAtLocation(sf);
    return new Set(symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : []);
  };
  const rootExports = exportsOf(index);
  const second = new Map<string, string>();
  const prologueLines = new Map<string, number>();
  for (const example of examples) {
    const name = virtualName(example);
    const missing = new Set(
      program
        .getSemanticDiagnostics(program.getSourceFile(name))
        .filter((d) => MISSING_NAME.has(d.code))
        .map((d) => /'([^']+)'/.exec(ts.flattenDiagnosticMessageText(d.messageText, '\n'))?.[1] ?? ''),
    );
    const own = exportsOf(path.join(root, example.file));
    const spec = (target: string) => `./${path.relative(path.dirname(name), target).replace(/\.ts$/, '.js')}`;
    const fromOwn = [...missing].filter((n) => own.has(n));
    const fromRoot = [...missing].filter((n) => !own.has(n) && rootExports.has(n));
    const rest = [...missing].filter((n) => n && !own.has(n) && !rootExports.has(n));
    const prologue = [
      ...(fromOwn.length ? [`import { ${fromOwn.join(', ')} } from '${spec(path.join(root, example.file))}';`] : []),
      ...(fromRoot.length ? [`import { ${fromRoot.join(', ')} } from '${spec(index)}';`] : []),
      ...rest.map((n) => `declare const ${n}: any;`),
    ];
    prologueLines.set(name, prologue.length);
    second.set(name, `${prologue.join('\n')}\n${example.code}export {};\n`);
  }
  const checked = compile(second, program);
  return examples.flatMap((example) => {
    const name = virtualName(example);
    const sf = checked.getSourceFile(name);
    return [...checked.getSyntacticDiagnostics(sf), ...checked.getSemanticDiagnostics(sf)].map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
      const exampleLine = line - (prologueLines.get(name) ?? 0);
      return `${example.file}:${example.firstLine + exampleLine}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
  });
}
