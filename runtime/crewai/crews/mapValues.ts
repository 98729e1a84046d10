import type { InstVal, ObjVal, Val } from '../construct/values';
import { templateOf } from '../construct/values';
import { inputName } from '../construct/frames';
import type { CrewInputs, MapContext, Setting } from './mapContext';

/** What one crew's mapping shares: the @CrewBase instance behind it, its inputs, and its members' ids. */
export interface CrewScope {
  owner?: InstVal;
  /** A crew read from YAML alone: its members by YAML key. */
  names?: Map<string, ObjVal>;
  inputs: CrewInputs;
  agentIds: Map<ObjVal, string>;
  taskIds: Map<ObjVal, string>;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

/** Records the `{placeholders}` of a text as the crew's inputs. */
export function noteInputs(scope: CrewScope, text: string): void {
  for (const m of text.matchAll(PLACEHOLDER)) if (!scope.inputs.has(m[1]!)) scope.inputs.set(m[1]!, undefined);
}

/**
 * A text setting (role, goal, description…): literals as written; values only known at run time
 * (a parameter, `input()`, `self.state.x`) as `{placeholders}` that become crew inputs. A value the
 * importer cannot read at all becomes a placeholder too, named after the setting, and is listed.
 */
export function textSetting(ctx: MapContext, scope: CrewScope, s: Setting | undefined, item: string): string | undefined {
  if (!s || (s.value.t === 'lit' && s.value.v === null)) return undefined;
  const t = templateOf(s.value);
  if (t) {
    for (const input of t.inputs) if (!scope.inputs.get(input.name)) scope.inputs.set(input.name, input);
    const text = t.text.trim();
    noteInputs(scope, text);
    return text;
  }
  const name = inputName(item.replace(/\./g, '_'));
  ctx.note(s.at, item, `${whyUnread(s.value)}; it is the crew input {${name}} instead`);
  scope.inputs.set(name, undefined);
  return `{${name}}`;
}

/** Why a value could not be read, for the unmapped list. */
export function whyUnread(v: Val): string {
  if (v.t === 'unknown') return `the value is not known without running the Python (${v.why})`;
  if (v.t === 'env') return `the value comes from the environment variable ${v.name}`;
  return `the value is a ${v.t === 'obj' ? `${v.cls}(...) object` : v.t}, not text`;
}

/** A true/false or positive whole-number setting; a value of the wrong type is listed, never guessed. */
export function flagSetting(ctx: MapContext, s: Setting | undefined, item: string, type: 'boolean' | 'integer'): boolean | number | undefined {
  if (!s || (s.value.t === 'lit' && s.value.v === null)) return undefined;
  const v = s.value.t === 'lit' ? s.value.v : undefined;
  if (type === 'boolean' && typeof v === 'boolean') return v;
  if (type === 'integer' && typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  ctx.note(s.at, `${item}: ${shown(s.value)}`, type === 'boolean' ? 'expected True or False' : 'expected a positive whole number');
  return undefined;
}

/** A value as the importer shows it in messages. */
export function shown(v: Val): string {
  switch (v.t) {
    case 'lit':
      return JSON.stringify(v.v);
    case 'obj':
      return `${v.cls}(...)`;
    case 'input':
      return `{${v.name}}`;
    case 'env':
      return `os.getenv("${v.name}")`;
    case 'func':
      return v.def.name;
    case 'class':
      return v.ref.name;
    case 'ext':
      return v.qual;
    case 'unknown':
      return `(${v.why})`;
    default:
      return v.t;
  }
}
