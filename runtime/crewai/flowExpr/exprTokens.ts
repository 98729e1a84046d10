import { UnsupportedPython } from './exprSyntax';

/** The tokens of a Python expression: numbers, strings (f-strings kept whole), names and operators. */
export type Token = { t: 'num' | 'str' | 'fstr' | 'name' | 'op'; v: string };

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    const str = /^([rRuUfFbB]{0,2})("""|'''|"|')/.exec(src.slice(i));
    // Both groups always take part (the prefix may be empty).
    const prefix = str?.[1];
    if (str && prefix !== undefined && (prefix === '' || /^[rRuUfF]{1,2}$/.test(prefix))) {
      const q = str[2]!;
      let j = i + str[0].length;
      while (j < src.length && !src.startsWith(q, j)) j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) throw new UnsupportedPython('an unclosed string');
      const raw = src.slice(i, j + q.length);
      out.push({ t: /f/i.test(prefix) ? 'fstr' : 'str', v: raw });
      i = j + q.length;
      continue;
    }
    const num = /^\d[\d_]*(\.\d+)?([eE][-+]?\d+)?/.exec(src.slice(i));
    if (num) {
      out.push({ t: 'num', v: num[0].replace(/_/g, '') });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_]\w*/.exec(src.slice(i));
    if (name) {
      out.push({ t: 'name', v: name[0] });
      i += name[0].length;
      continue;
    }
    const op = /^(\*\*|\/\/|==|!=|<=|>=|[-+*/%<>()[\]{},.:])/.exec(src.slice(i));
    if (!op) throw new UnsupportedPython(`"${ch}"`);
    out.push({ t: 'op', v: op[0] });
    i += op[0].length;
  }
  return out;
}
