import { splitTopLevel, type PyStatement } from '../pythonSource';
import type { MethodContext } from './methodContext';

const STATE_SET = /^self\.state(?:\.(\w+)|\[\s*(["'])(\w+)\2\s*\])\s*(\+=|-=|=)\s*([\s\S]+)$/;
/** `self.state.items.append(x)` / `.extend(xs)`: a list edit, applied to the list the state holds. */
const STATE_EDIT = /^self\.state\.(\w+)\.(append|extend)\(([\s\S]+)\)$/;

/**
 * A state assignment, list edit or local assignment, kept pending (the next step flushes it into a
 * set_state or a script). False when the statement is none of those.
 */
export function pendingEdit(ctx: MethodContext, s: PyStatement): boolean {
  const edit = STATE_EDIT.exec(s.text);
  if (edit && splitTopLevel(edit[3]!).length === 1) {
    ctx.pending.python.push(s.text);
    ctx.pending.assigns.push({ field: edit[1]!, op: edit[2]!, expr: edit[3]!.trim(), at: s });
    return true;
  }
  const set = STATE_SET.exec(s.text);
  if (set) {
    ctx.pending.python.push(s.text);
    // STATE_SET: group 1 (`.field`) or group 3 (`["field"]`) always matched, and groups 4 and 5.
    ctx.pending.assigns.push({ field: (set[1] ?? set[3])!, op: set[4]!, expr: set[5]!.trim(), at: s });
    return true;
  }
  const local = /^(\w+)\s*=(?!=)\s*([\s\S]+)$/.exec(s.text);
  if (local && s.block.length === 0) {
    ctx.pending.python.push(s.text);
    ctx.pending.locals.push({ name: local[1]!, expr: local[2]!.trim() });
    ctx.scope.locals.set(local[1]!, local[2]!.trim());
    return true;
  }
  return false;
}
