/**
 * The syntax tree of a simple Python expression of a CrewAI Flow method, and the error for what the
 * reader does not cover (the method then becomes a stub).
 */

export class UnsupportedPython extends Error {
  override name = 'UnsupportedPython';
}

/** An expression's syntax tree: literals, names, attributes, indexes, calls, operators, f-strings. */
export type Node =
  | { k: 'lit'; v: string | number | boolean | null }
  | { k: 'name'; n: string }
  | { k: 'attr'; o: Node; a: string }
  | { k: 'index'; o: Node; i: Node }
  | { k: 'call'; f: Node; args: Node[] }
  | { k: 'bin'; op: string; l: Node; r: Node }
  | { k: 'not'; e: Node }
  | { k: 'neg'; e: Node }
  | { k: 'cmp'; first: Node; rest: { op: string; r: Node }[] }
  | { k: 'list'; items: Node[] }
  | { k: 'dict'; entries: [Node, Node][] }
  | { k: 'fstr'; parts: (string | Node)[] };

