import type { ExprScope } from './flowExpression';
import { askInput, INPUT } from './flowSteps/askInput';
import { KICKOFF, readCrewKickoff } from './flowSteps/crewKickoff';
import { DROPPED } from './flowSteps/dropped';
import { fanOut } from './flowSteps/fanOut';
import { fileWrite, PATH_WRITE, pathWrite } from './flowSteps/fileWrites';
import type { MethodReading } from './flowSteps/flowStep';
import { flush } from './flowSteps/flushPending';
import { MethodContext } from './flowSteps/methodContext';
import { returned } from './flowSteps/returnStatement';
import { routerChain, withExits } from './flowSteps/routing';
import { sequentialLoop } from './flowSteps/sequentialLoop';
import { pendingEdit } from './flowSteps/stateEdits';
import { flatten, Unmappable } from './flowSteps/unmappable';
import { pyString, statements, type PyFunction, type PyStatement } from './pythonSource';

/** Reads one method of a Flow class into steps (or says which statement could not be read). */
export function readMethodSteps(
  fn: PyFunction,
  isRouter: boolean,
  fieldType: (field: string) => string | undefined = () => undefined,
  /** Names a guard's continue route must not take (method names and route labels of the flow). */
  reserved: ReadonlySet<string> = new Set(),
): MethodReading {
  const lines = fn.body.split('\n');
  const header = statements(lines[0] + '\n', fn.line)[0];
  const body = statements(lines.slice(1).join('\n'), fn.line + 1);
  void header;
  const reading: MethodReading = { steps: [], crews: [], dropped: 0 };
  const scope: ExprScope = { input: new Set(fn.params.slice(1).filter((p) => p !== 'self')), results: new Set(), locals: new Map() };
  const ctx = new MethodContext(reading, scope, isRouter, fn, fieldType, reserved);
  try {
    read(ctx, body);
  } catch (error) {
    if (error instanceof Unmappable) {
      reading.unsupported = { line: error.at.line, python: flatten(error.at), why: error.why };
      reading.steps = [];
      return reading;
    }
    throw error;
  }
  return reading;
}

function read(ctx: MethodContext, python: PyStatement[]): void {
  const body = ctx.isRouter ? withExits(ctx, python) : python;
  for (let i = 0; i < body.length; i += 1) {
    const s = body[i]!;
    if (i === 0 && pyString(s.text) !== undefined) {
      ctx.out.description = pyString(s.text)!.trim().replace(/\s+/g, ' ') || undefined;
      continue;
    }
    if (s.text === 'pass' || DROPPED.test(s.text)) {
      if (s.text !== 'pass') ctx.out.dropped += 1;
      continue;
    }
    const last = readStatement(ctx, body, i);
    // The method ends at a return (and a router at its routing if-chain): nothing is left to flush.
    if (last === undefined) return;
    i = last;
  }
  flush(ctx);
  if (ctx.isRouter && !ctx.routed) throw new Unmappable(body[body.length - 1] ?? { text: ctx.fn.name, line: ctx.fn.line, indent: 0, block: [] }, 'a router that returns no route label');
}

/** Reads `body[i]` (and the statements after it that belong to it): the index of the last one used, undefined when the method ends there. */
function readStatement(ctx: MethodContext, body: PyStatement[], i: number): number | undefined {
  const s = body[i]!;
  if (/^(if|elif)\b/.test(s.text) && ctx.isRouter) return routerChain(ctx, body, i);
  if (/^return\b/.test(s.text)) {
    returned(ctx, s);
    if (i + 1 < body.length) throw new Unmappable(body[i + 1]!, 'code after return');
    return undefined;
  }
  const kick = KICKOFF.exec(s.text);
  if (kick) {
    readCrewKickoff(ctx, s, kick);
    return i;
  }
  if (/^async\s+def\b/.test(s.text) || /=\s*asyncio\.(?:Bounded)?Semaphore\(/.test(s.text) || /asyncio\.(?:gather|create_task)\s*\(|\.kickoff_async\s*\(/.test(s.text)) return fanOut(ctx, body, i, s);
  if (/^with\s+open\s*\(/.test(s.text)) {
    fileWrite(ctx, s);
    return i;
  }
  const written = PATH_WRITE.exec(s.text);
  if (written) {
    pathWrite(ctx, s, written);
    return i;
  }
  const asked = INPUT.exec(s.text);
  if (asked) {
    askInput(ctx, s, asked, body.slice(0, i));
    return i;
  }
  const loop = /^for\s+(\w+(?:\s*,\s*\w+)?)\s+in\s+([\s\S]+):$/.exec(s.text);
  if (loop) {
    sequentialLoop(ctx, s, loop[1]!, loop[2]!);
    return i;
  }
  if (pendingEdit(ctx, s)) return i;
  throw new Unmappable(s, 'not a statement this importer can read');
}
