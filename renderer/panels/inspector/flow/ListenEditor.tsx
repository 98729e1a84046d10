import { conditionText } from '../../../canvas/flow/conditionText';
import { addRef, gateOf, removePaths, routeOf, sameRef, setOpAt, type ConditionRef, type GateOp } from '../../../commands/flow/conditionTree';

type Props = {
  /** The listen condition as the document has it. */
  condition: unknown;
  /** Methods it can listen to (every other method's name). */
  methods: readonly string[];
  /** Routes it can listen to (every other router's labels). */
  routes: readonly string[];
  /** A new condition (never empty: the last reference cannot be removed). */
  onChange(condition: unknown): void;
  /** Id of the *Add…* control of the whole condition (the field's label points at it). */
  addId?: string;
  /** A start method's extra condition: the last reference may go too (onChange gets undefined). */
  optional?: boolean;
};

const refKey = (ref: ConditionRef) => (typeof ref === 'string' ? `m:${ref}` : `r:${ref.route}`);
const refOfKey = (key: string): ConditionRef => (key.startsWith('r:') ? { route: key.slice(2) } : key.slice(2));

/**
 * "Listens to", the one editor of a listen condition: a chip per method or route it listens to, × to
 * remove one, *Add…* to listen to one more, and an or/and switch for each group. Nested groups (made by
 * dropping on a gate on the canvas) are edited the same way, inside their own box.
 */
export function ListenEditor({ condition, methods, routes, onChange, addId, optional = false }: Props) {
  const leaves = countLeaves(condition);
  const lastLeaf = !optional && leaves <= 1;
  return (
    <div className="listen-editor" role="group" aria-label="Listens to" data-testid="method-condition" data-condition={conditionText(condition)}>
      <Group condition={condition} root={condition} path={[]} methods={methods} routes={routes} onChange={onChange} lastLeaf={lastLeaf} addId={addId} />
    </div>
  );
}

type GroupProps = {
  condition: unknown;
  root: unknown;
  path: number[];
  methods: readonly string[];
  routes: readonly string[];
  onChange(condition: unknown): void;
  lastLeaf: boolean;
  addId?: string;
};

function Group({ condition, root, path, methods, routes, onChange, lastLeaf, addId }: GroupProps) {
  const gate = gateOf(condition);
  const members = gate ? gate.members : condition === undefined ? [] : [condition];
  const at = path.join('.');
  const memberPath = (i: number) => (gate ? [...path, i] : path);
  const remove = (i: number) => onChange(removePaths(root, [memberPath(i)]));
  const add = (key: string) => onChange(addRef(root, refOfKey(key), gate ? path : undefined));
  const setOp = (op: GateOp) => onChange(setOpAt(root, path, op));
  const choices = [
    ...methods.map((name): ConditionRef => name),
    ...routes.map((route): ConditionRef => ({ route })),
  ].filter((ref) => !members.some((m) => sameRef(m, ref)));
  return (
    <div className="listen-group" data-path={at}>
      {gate && members.length > 1 && (
        <div className="flow-op-toggle listen-op" role="radiogroup" aria-label={path.length === 0 ? 'Runs when' : 'This group runs when'}>
          {(['or', 'and'] as const).map((op) => (
            <button
              key={op}
              type="button"
              role="radio"
              aria-checked={gate.op === op}
              aria-pressed={gate.op === op}
              title={op === 'or' ? 'Any of these completes (or its route is chosen)' : 'All of these have completed since it last ran'}
              data-testid={`listen-op-${op}${at ? `-${at}` : ''}`}
              onClick={() => setOp(op)}
            >
              {op === 'or' ? 'any (or)' : 'all (and)'}
            </button>
          ))}
        </div>
      )}
      <ul className="listen-chips">
        {members.map((member, i) => {
          if (gateOf(member)) {
            return (
              <li key={i} className="listen-nested">
                <Group condition={member} root={root} path={memberPath(i)} methods={methods} routes={routes} onChange={onChange} lastLeaf={lastLeaf} />
              </li>
            );
          }
          const route = routeOf(member);
          const text = typeof member === 'string' ? member : route !== undefined ? route : JSON.stringify(member);
          return (
            <li key={i} className="listen-chip" data-kind={route !== undefined ? 'route' : 'method'} data-testid="listen-chip">
              {route !== undefined && <span className="listen-chip-kind">route</span>}
              <span className="listen-chip-text">{text}</span>
              <button
                type="button"
                className="listen-chip-remove"
                aria-label={`Stop listening to ${route !== undefined ? `route ${route}` : text}`}
                title={lastLeaf ? 'A listener needs something to listen to (or make it a start method)' : 'Stop listening to this'}
                disabled={lastLeaf}
                data-testid={`listen-remove-${text}`}
                onClick={() => remove(i)}
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
      {choices.length > 0 && (
        <select
          id={addId}
          className="insp-input listen-add"
          value=""
          aria-label={path.length === 0 ? 'Listen to one more' : 'Add to this group'}
          data-testid={`listen-add${at ? `-${at}` : ''}`}
          onChange={(e) => e.target.value && add(e.target.value)}
        >
          <option value="">{members.length === 0 ? 'Listen to…' : '+ Add…'}</option>
          {choices.some((c) => typeof c === 'string') && (
            <optgroup label="When a method completes">
              {choices.filter((c): c is string => typeof c === 'string').map((name) => (
                <option key={name} value={refKey(name)}>
                  {name}
                </option>
              ))}
            </optgroup>
          )}
          {choices.some((c) => typeof c !== 'string') && (
            <optgroup label="When a router chooses">
              {choices
                .filter((c): c is { route: string } => typeof c !== 'string')
                .map((c) => (
                  <option key={c.route} value={refKey(c)}>
                    route {c.route}
                  </option>
                ))}
            </optgroup>
          )}
        </select>
      )}
    </div>
  );
}

function countLeaves(condition: unknown): number {
  const gate = gateOf(condition);
  if (gate) return gate.members.reduce<number>((n, m) => n + countLeaves(m), 0);
  return condition === undefined ? 0 : 1;
}
