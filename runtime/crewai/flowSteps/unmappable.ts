import type { PyStatement } from '../pythonSource';

/** A statement the method reader cannot map: the whole method becomes a stub. */
export class Unmappable extends Error {
  constructor(
    readonly at: PyStatement,
    readonly why: string,
  ) {
    super(why);
  }
}

/** A statement and its block as Python text, indented as in the method. */
export function flatten(s: PyStatement, indent = ''): string {
  return [indent + s.text, ...s.block.map((b) => flatten(b, `${indent}    `))].join('\n');
}
