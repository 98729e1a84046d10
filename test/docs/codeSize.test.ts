import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The size limits of the product's source (docs/ARCHITECTURE.md): at most two files over 400 lines, each
 * saying why at its top (its opening comment contains "over 400 lines"); no function in runtime/ over 80
 * lines, none elsewhere over 160. A function counts from its first line to its last, arrow functions and
 * methods included.
 */
const root = join(import.meta.dirname, '../..');
const PRODUCT = ['shared', 'runtime', 'renderer', 'electron'];
const FILE_LIMIT = 400;
const FILES_OVER_LIMIT = 2;
const RUNTIME_FUNCTION_LIMIT = 80;
const FUNCTION_LIMIT = 160;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface LongFunction {
  at: string;
  lines: number;
}

function longFunctions(path: string, text: string, limit: number): LongFunction[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.end).line;
      if (last - first + 1 > limit) found.push({ at: `${path}:${first + 1}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const files = PRODUCT.flatMap(sourceFiles).map((path) => ({ path: relative(root, join(root, path)), text: readFileSync(join(root, path), 'utf8') }));

describe('code size', () => {
  it('reads the product source', () => {
    expect(files.length).toBeGreaterThan(500);
    expect(files.some((f) => f.path === 'runtime/runtime.ts')).toBe(true);
  });

  it(`at most ${FILES_OVER_LIMIT} source files are over ${FILE_LIMIT} lines, each saying why at its top`, () => {
    const large = files.filter((f) => f.text.split('\n').length > FILE_LIMIT);
    expect(large.length).toBeLessThanOrEqual(FILES_OVER_LIMIT);
    const opening = (text: string) => /^\s*(\/\*[\s\S]*?\*\/|(\/\/.*\n)+)/.exec(text)?.[0] ?? '';
    expect(large.filter((f) => !opening(f.text).includes(`over ${FILE_LIMIT} lines`)).map((f) => f.path)).toEqual([]);
  });

  it(`no function in runtime/ is over ${RUNTIME_FUNCTION_LIMIT} lines, none elsewhere over ${FUNCTION_LIMIT}`, () => {
    const long = files.flatMap((f) => longFunctions(f.path, f.text, f.path.startsWith('runtime/') ? RUNTIME_FUNCTION_LIMIT : FUNCTION_LIMIT));
    expect(long).toEqual([]);
  });

  it('the measure finds a long function and a long arrow function', () => {
    const body = Array.from({ length: 90 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `function a() {\n${body}\n}\nconst b = () => {\n${body}\n};\nfunction c() { return 1; }\n`;
    expect(longFunctions('x.ts', text, 80).map((f) => f.at)).toEqual(['x.ts:1', 'x.ts:93']);
  });
});
