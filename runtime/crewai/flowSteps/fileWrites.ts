import { preludeFor, toJs, toRef, toTemplate, UnsupportedPython } from '../flowExpression';
import { callArguments, pyString, type PyStatement } from '../pythonSource';
import { flush } from './flushPending';
import type { MethodContext } from './methodContext';
import { Unmappable } from './unmappable';

/** `Path("x.md").write_text(expr)`, as a statement's text. */
export const PATH_WRITE = /^(?:pathlib\.)?Path\s*\(([\s\S]*?)\)\s*\.\s*write_text\s*\(([\s\S]*)\)$/;

/** `with open("x.md", "w") as f: f.write(expr)` → the step's outputFile (a step giving `expr` first when needed). */
export function fileWrite(ctx: MethodContext, s: PyStatement): void {
  const m = /^with\s+open\s*\(([\s\S]*)\)\s+as\s+(\w+)\s*:$/.exec(s.text);
  if (!m || s.block.length !== 1) throw new Unmappable(s, 'a file write other than `with open(path, "w") as f: f.write(…)`');
  const { positional, keywords } = callArguments(m[1]!);
  const mode = pyString(positional[1] ?? keywords.get('mode') ?? '"r"');
  const write = new RegExp(`^${m[2]}\\.write\\(([\\s\\S]*)\\)$`).exec(s.block[0]!.text);
  if (mode !== 'w' || positional[0] === undefined || !write) throw new Unmappable(s, 'a file write other than `with open(path, "w") as f: f.write(…)`');
  writeFile(ctx, s, positional[0], write[1]!);
}

/** `Path("x.md").write_text(expr)` (also `pathlib.Path`, with `encoding=`): a file write as `with open` is. */
export function pathWrite(ctx: MethodContext, s: PyStatement, m: RegExpExecArray): void {
  const [target, ...moreTargets] = callArguments(m[1]!).positional;
  const args = callArguments(m[2]!);
  const [content, ...moreContent] = args.positional;
  if (target === undefined || moreTargets.length > 0 || content === undefined || moreContent.length > 0 || [...args.keywords.keys()].some((k) => k !== 'encoding')) throw new Unmappable(s, 'a Path(…).write_text(…) other than `Path(path).write_text(text)`');
  writeFile(ctx, s, target, content);
}

function writeFile(ctx: MethodContext, s: PyStatement, pathExpr: string, contentExpr: string): void {
  const path = toTemplate(pathExpr, ctx.scope);
  if (path === undefined) throw new Unmappable(s, `a file path (${pathExpr.trim()}) that is not a string, f-string or state value`);
  const content = ctx.normalized(contentExpr);
  flush(ctx);
  const ref = toRef(content, ctx.scope);
  const previous = ctx.out.steps.at(-1);
  if (ref === 'input' && previous !== undefined && !previous.outputFile) {
    previous.outputFile = path;
    return;
  }
  let js: string;
  try {
    js = toJs(content, ctx.scope);
  } catch (error) {
    if (error instanceof UnsupportedPython) throw new Unmappable(s, `the content written (${content}): ${error.message} cannot be transpiled`);
    throw error;
  }
  const code = [...preludeFor([`__str(${js})`]), `return __str(${js});`].join('\n');
  ctx.push({ body: { type: 'script', code, python: `output = ${content}` }, outputFile: path }, ref === 'input');
  ctx.scope.locals.set('output', content);
  ctx.current = content;
}
