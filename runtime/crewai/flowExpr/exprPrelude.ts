const HELPERS: Record<string, string> = {
  __json: 'const __json = () => { try { return JSON.parse(input); } catch { return {}; } };',
  __truthy: 'const __truthy = (v) => Array.isArray(v) ? v.length > 0 : v !== null && typeof v === "object" ? Object.keys(v).length > 0 : Boolean(v);',
  __in: 'const __in = (a, b) => typeof b === "string" ? b.includes(String(a)) : Array.isArray(b) ? b.includes(a) : b !== null && typeof b === "object" ? a in b : false;',
  __add: 'const __add = (a, b) => Array.isArray(a) && Array.isArray(b) ? [...a, ...b] : a + b;',
  __str: 'const __str = (v) => typeof v === "string" ? v : v === null || v === undefined ? "None" : typeof v === "boolean" ? (v ? "True" : "False") : typeof v === "object" ? JSON.stringify(v) : String(v);',
};

/** The helpers (Python truthiness, `in`, str(), the input as JSON) that the script lines use. */
export function preludeFor(lines: string[]): string[] {
  const text = lines.join('\n');
  return Object.entries(HELPERS).filter(([name]) => new RegExp(`\\b${name}\\b`).test(text)).map(([, code]) => code);
}
