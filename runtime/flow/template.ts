/**
 * `{state.field.sub}` and `{input}` / `{input.field}` in a flow's templates, and in a for_each body
 * `{item}` / `{item.field}` and `{index}`; other braces stay as they are.
 */
const PLACEHOLDER = /\{(state(?:\.[A-Za-z0-9_-]+)+|input(?:\.[A-Za-z0-9_-]+)*|item(?:\.[A-Za-z0-9_-]+)*|index)\}/g;

/** A template names a state field (or input field) that has no value. */
export class FlowTemplateError extends Error {
  override name = 'FlowTemplateError';
}

export interface TemplateScope {
  state: Record<string, unknown>;
  /** The triggering method's output (undefined for start methods). */
  input: string | undefined;
  /** Inside a for_each body: the current item and its 0-based index. */
  each?: { item: unknown; index: number };
}

/** Reads `state.a.b` / `input` / `input.a` (the input parsed as JSON). */
export function lookup(path: string, scope: TemplateScope): { found: boolean; value: unknown } {
  const [head, ...rest] = path.split('.');
  let value: unknown;
  if (head === 'index' || head === 'item') {
    if (!scope.each) return { found: false, value: undefined };
    if (head === 'index') return { found: rest.length === 0, value: scope.each.index };
    value = scope.each.item;
  } else if (head === 'state') value = scope.state;
  else {
    if (scope.input === undefined) return { found: false, value: undefined };
    if (rest.length === 0) return { found: true, value: scope.input };
    try {
      value = JSON.parse(scope.input);
    } catch {
      return { found: false, value: undefined };
    }
  }
  for (const key of rest) {
    if (value === null || typeof value !== 'object' || !(key in (value as object))) return { found: false, value: undefined };
    value = (value as Record<string, unknown>)[key];
  }
  return { found: true, value };
}

export function renderTemplate(text: string, scope: TemplateScope, where: string): string {
  return text.replace(PLACEHOLDER, (_match, path: string) => {
    const { found, value } = lookup(path, scope);
    if (!found) {
      const known = path.startsWith('state')
        ? ` (state has: ${Object.keys(scope.state).join(', ') || 'nothing yet'})`
        : /^(item|index)/.test(path)
          ? scope.each ? '' : ' (only a for_each body has an item)'
          : scope.input === undefined ? ' (this method has no input: nothing triggered it)' : '';
      throw new FlowTemplateError(`${where}: {${path}} has no value${known}`);
    }
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}
