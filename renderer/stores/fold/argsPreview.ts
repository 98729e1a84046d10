/** A one-line preview of tool arguments for the trace row. */
export function argsPreview(args: unknown): string {
  if (args === undefined) return '';
  let text: string;
  try {
    text = typeof args === 'string' ? args : JSON.stringify(args);
  } catch {
    text = String(args);
  }
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
