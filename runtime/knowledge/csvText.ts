/**
 * CSV to readable text: each data row becomes one line of `header: value` pairs
 * (`name: Ada; role: engineer`), so a chunk of rows still says what each value means.
 */

/** Parses CSV (RFC 4180: quoted fields with "" escapes and line breaks; CRLF or LF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const body = text.replace(/^\uFEFF/, '');
  while (i < body.length) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i += 1;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      if (c === '\r' && body[i + 1] === '\n') i += 1;
    } else field += c;
    i += 1;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  if (quoted) throw new Error('a quoted field is never closed');
  return rows.filter((r) => r.some((v) => v.trim() !== ''));
}

/** The rows as lines of `header: value` pairs (empty values left out); undefined headers become `column N`. */
export function csvToText(text: string): string {
  const [header, ...rows] = parseCsv(text);
  if (!header) return '';
  const names = header.map((h, i) => h.trim() || `column ${i + 1}`);
  return rows
    .map((row) =>
      row
        .map((value, i) => [names[i] ?? `column ${i + 1}`, value.trim()] as const)
        .filter(([, value]) => value !== '')
        .map(([name, value]) => `${name}: ${value}`)
        .join('; '),
    )
    .filter((line) => line !== '')
    .join('\n');
}
