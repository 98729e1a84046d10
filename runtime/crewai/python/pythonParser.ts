import { createRequire } from 'node:module';
import type { Language, Node, Parser } from 'web-tree-sitter';
import { block } from './cstStatements';
import type { PyModule, PySyntaxProblem } from './pyAst';

/**
 * Python is read with tree-sitter's Python grammar (tree-sitter-python's WebAssembly build on
 * web-tree-sitter), never run. Loading the grammar is asynchronous and happens once per process;
 * parsing is synchronous after that. A file with syntax errors still yields a tree (tree-sitter
 * recovers), and the errors come with their line and column so the importer can name them.
 */

let loading: Promise<Parser> | undefined;

/** Loads the parser (once). Every reader that parses must await this first. */
export function loadPythonParser(): Promise<Parser> {
  loading ??= (async () => {
    const { Parser: TsParser, Language: TsLanguage } = await import('web-tree-sitter');
    await TsParser.init();
    const require = createRequire(import.meta.url);
    const language: Language = await TsLanguage.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm'));
    const parser = new TsParser();
    parser.setLanguage(language);
    return parser;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Files larger than this are not parsed (a downloaded project is untrusted): 2 MB of Python. */
export const MAX_PYTHON_BYTES = 2 * 1024 * 1024;

/** A parsed file larger than the reader takes. */
export class PythonFileTooLarge extends Error {
  override name = 'PythonFileTooLarge';
}

/** Parses `source` (of `file`, relative to the project) with the loaded parser. */
export function parsePython(parser: Parser, source: string, file: string): PyModule {
  if (source.length > MAX_PYTHON_BYTES) throw new PythonFileTooLarge(`${file} is ${source.length} characters long; the importer reads Python files up to ${MAX_PYTHON_BYTES}`);
  const tree = parser.parse(source);
  if (!tree) return { file, source, body: [], errors: [{ line: 1, col: 1, message: 'the file could not be parsed' }] };
  try {
    const root = tree.rootNode;
    return { file, source, body: block(root), errors: root.hasError ? syntaxProblems(root) : [] };
  } finally {
    tree.delete();
  }
}

/** The ERROR and MISSING nodes of a tree (the first 20), each with where it is and what went wrong. */
function syntaxProblems(root: Node): PySyntaxProblem[] {
  const out: PySyntaxProblem[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0 && out.length < 20) {
    const n = stack.pop()!;
    const at = { line: n.startPosition.row + 1, col: n.startPosition.column + 1 };
    if (n.isMissing) {
      out.push({ ...at, message: `missing "${n.type}"` });
      continue;
    }
    // An error inside an error is nearer to where reading went wrong: report the innermost.
    const inner = n.isError ? n.children.some((c) => c !== null && (c.isError || c.isMissing || c.hasError)) : false;
    if (n.isError && !inner) {
      const text = n.text.split('\n')[0]!.slice(0, 40);
      out.push({ ...at, message: text.trim() === '' ? 'invalid syntax' : `invalid syntax at "${text.trim()}"` });
      continue;
    }
    if (!n.hasError) continue;
    // `children` reads them in one pass (child(i) walks from the first child each time: quadratic).
    const children = n.children;
    for (let i = children.length - 1; i >= 0; i -= 1) {
      const c = children[i];
      if (c) stack.push(c);
    }
  }
  return out.sort((a, b) => a.line - b.line || a.col - b.col);
}
