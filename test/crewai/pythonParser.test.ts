import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Parser } from 'web-tree-sitter';
import { importCrewAiProject } from '../../runtime/crewai/importProject';
import { sourceOf, type PyExpr, type PyStmt } from '../../runtime/crewai/python/pyAst';
import { loadPythonParser, parsePython } from '../../runtime/crewai/python/pythonParser';

let parser: Parser;
beforeAll(async () => {
  parser = await loadPythonParser();
});

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The tree without positions, for comparing shapes. */
function shape(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (['line', 'col', 'endLine', 'endCol', 'start', 'end'].includes(key) ? undefined : v)));
}

const one = (src: string): PyStmt => parsePython(parser, src, 'x.py').body[0]!;
const expr = (src: string): PyExpr => {
  const s = one(src);
  if (s.k !== 'expr') throw new Error(`not an expression statement: ${s.k}`);
  return s.e;
};

describe('the Python reader (tree-sitter-python on web-tree-sitter)', () => {
  it('reads a Flow class: decorators, parameters with defaults, docstrings, async methods', () => {
    const mod = parsePython(
      parser,
      ['class BookFlow(Flow[BookState]):', '    """Writes a book."""', '', '    @listen(or_(plan, "retry"))', '    async def write(self, outline: str = "", *rest, **extra) -> str:', '        return outline', ''].join('\n'),
      'main.py',
    );
    const cls = mod.body[0]!;
    expect(cls.k).toBe('class');
    if (cls.k !== 'class') return;
    expect(cls.name).toBe('BookFlow');
    expect(cls.docstring).toBe('Writes a book.');
    expect(shape(cls.bases)).toEqual([{ kind: 'pos', e: { k: 'sub', obj: { k: 'name', id: 'Flow' }, index: { k: 'name', id: 'BookState' } } }]);
    const def = cls.body[1]!;
    if (def.k !== 'def') throw new Error(def.k);
    expect(def.isAsync).toBe(true);
    expect(def.line).toBe(5);
    expect(sourceOf(mod, def).split('\n')[0]).toBe('    @listen(or_(plan, "retry"))'.trim());
    expect(def.params.map((p) => `${p.kind}:${p.name}${p.default ? '=' : ''}`)).toEqual(['normal:self', 'normal:outline=', 'star:rest', 'dstar:extra']);
    expect(shape(def.decorators)).toEqual([
      { k: 'call', fn: { k: 'name', id: 'listen' }, args: [{ kind: 'pos', e: { k: 'call', fn: { k: 'name', id: 'or_' }, args: [{ kind: 'pos', e: { k: 'name', id: 'plan' } }, { kind: 'pos', e: { k: 'const', v: 'retry' } }] } }] },
    ]);
  });

  it('reads strings as Python does: escapes, raw strings, implicit concatenation, f-strings with conversions and nested specs', () => {
    expect(shape(expr('"a\\tb\\x41\\u00e9\\N{DASH}" r"\\n"'))).toEqual({ k: 'const', v: 'a\tbAé\\N{DASH}\\n' });
    expect(shape(expr('f"{x!r:>{w}} {{lit}} {y.z}"'))).toEqual({
      k: 'fstr',
      parts: [{ e: { k: 'name', id: 'x' }, conv: 'r', spec: ['>', { e: { k: 'name', id: 'w' } }] }, ' {lit} ', { e: { k: 'attr', obj: { k: 'name', id: 'y' }, name: 'z' } }],
    });
    expect(shape(expr('"line\u2028sep"'))).toEqual({ k: 'const', v: 'line\u2028sep' });
  });

  it('reads statements: chained and annotated assignments, +=, if/elif/else, for over pairs, with … as, try/except', () => {
    expect(shape(one('a = b = [i * 2 for i in range(3) if i]'))).toMatchObject({ k: 'assign', targets: [{ id: 'a' }, { id: 'b' }], value: { k: 'comp', kind: 'list' } });
    expect(shape(one('self.state.n += 1'))).toMatchObject({ k: 'augassign', op: '+', target: { k: 'attr', name: 'n' } });
    expect(shape(one('x: int'))).toMatchObject({ k: 'annassign', target: { id: 'x' }, annotation: { id: 'int' } });
    const chain = one('if a:\n    x = 1\nelif b:\n    x = 2\nelse:\n    x = 3\n');
    expect(shape(chain)).toMatchObject({ k: 'if', test: { id: 'a' }, orelse: [{ k: 'if', test: { id: 'b' }, orelse: [{ k: 'assign' }] }] });
    expect(shape(one('for i, c in enumerate(xs):\n    pass\n'))).toMatchObject({ k: 'for', target: { k: 'tuple', items: [{ id: 'i' }, { id: 'c' }] }, iter: { k: 'call' } });
    expect(shape(one('with open("x.md", "w") as f:\n    f.write(t)\n'))).toMatchObject({ k: 'with', items: [{ e: { k: 'call' }, as: { id: 'f' } }] });
    expect(shape(one('try:\n    pass\nexcept (A, B) as e:\n    raise\nfinally:\n    pass\n'))).toMatchObject({ k: 'try', handlers: [{ name: 'e', type: { k: 'tuple' } }], finalbody: [{ k: 'pass' }] });
    expect(shape(one('from ..crews.poem import PoemCrew as PC, X'))).toEqual({ k: 'from', module: 'crews.poem', level: 2, names: [{ name: 'PoemCrew', as: 'PC' }, { name: 'X' }] });
  });

  it('reads comparisons with "not in" and "is not", slices, lambdas and conditional expressions', () => {
    expect(shape(expr('a is not None and b not in c'))).toEqual({
      k: 'bool',
      op: 'and',
      l: { k: 'cmp', first: { k: 'name', id: 'a' }, rest: [{ op: 'is not', r: { k: 'const', v: null } }] },
      r: { k: 'cmp', first: { k: 'name', id: 'b' }, rest: [{ op: 'not in', r: { k: 'name', id: 'c' } }] },
    });
    expect(shape(expr('s[::-1]'))).toEqual({ k: 'sub', obj: { k: 'name', id: 's' }, index: { k: 'slice', step: { k: 'const', v: -1 } } });
    expect(shape(expr('sorted(xs, key=lambda c: c.score)'))).toMatchObject({ k: 'call', args: [{ kind: 'pos' }, { kind: 'kw', name: 'key', e: { k: 'lambda', params: [{ name: 'c' }] } }] });
    expect(shape(expr('a if t else b'))).toEqual({ k: 'ifexp', body: { k: 'name', id: 'a' }, test: { k: 'name', id: 't' }, orelse: { k: 'name', id: 'b' } });
  });

  it('names the line and column of a syntax error, and keeps reading the statements it can', () => {
    const mod = parsePython(parser, 'x = 1\ndef broken(:\n    pass\ny = 2\n', 'main.py');
    expect(mod.errors[0]).toEqual({ line: 2, col: 12, message: 'missing ")"' });
    expect(mod.body.some((s) => s.k === 'assign' && s.targets[0]?.k === 'name' && s.targets[0].id === 'y')).toBe(true);
    expect(parsePython(parser, 'items = [1, 2\n', 'a.py').errors.length).toBeGreaterThan(0);
  });
});

describe('crewdeck import and Python syntax errors', () => {
  it('lists a syntax error in crew.py with file, line and column, and still imports the crew', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewdeck-pysyntax-'));
    temps.push(dir);
    cpSync(join(import.meta.dirname, '../fixtures/crewai/market_research'), dir, { recursive: true });
    const crewPy = join(dir, 'src/market_research/crew.py');
    writeFileSync(crewPy, `${readFileSync(crewPy, 'utf8')}\n\ndef helper(:\n    pass\n`);
    const lines = readFileSync(crewPy, 'utf8').split('\n');
    const line = lines.findIndex((l) => l.startsWith('def helper(')) + 1;
    const result = await importCrewAiProject(dir);
    expect(result.crews[0]!.agents.length).toBeGreaterThan(0);
    expect(result.unmapped).toContainEqual({ path: `src/market_research/crew.py:${line}:12`, item: 'Python syntax', why: 'missing ")"; the statements around it could not be read' });
  });
});
