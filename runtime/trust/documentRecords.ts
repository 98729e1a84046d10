/**
 * Every object in a parsed document (agents, managers, guardrails, flow bodies, at any depth), with its
 * field path (`agents.0.llm`), so a trust check finds what it looks for wherever it sits.
 */
export function forEachRecord(document: unknown, visitRecord: (record: Record<string, unknown>, path: readonly string[]) => void): void {
  const visit = (value: unknown, path: string[]) => {
    if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, String(i)]));
    else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      visitRecord(record, path);
      for (const [k, v] of Object.entries(record)) visit(v, [...path, k]);
    }
  };
  visit(document, []);
}
