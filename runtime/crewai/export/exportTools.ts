import type { ToolRef } from '../../../shared/model/tool';
import { crewAiFromToolRef, toolRefFromCrewAi, type PyArg } from '../crewAiTools';

/** A tool reference as a crewai_tools constructor call, through the tools' mapping table (crewAiTools.ts). */
export type CrewAiToolCode = { ok: true; className: string; code: string; notes: string[]; lost?: string } | { ok: false; why: string };

export function toolForCrewAi(ref: ToolRef): CrewAiToolCode {
  if (ref.tool.startsWith('mcp:')) return { ok: false, why: 'MCP tools are attached in CrewAI with an MCP server adapter in Python; add it by hand' };
  const mapped = crewAiFromToolRef(ref);
  if (!mapped) return { ok: false, why: `CrewAI has no tool like the ${ref.tool} built-in${ref.config ? ` with ${JSON.stringify(ref.config)}` : ''}` };
  const args = Object.entries(mapped.kwargs).map(([key, value]) => `${key}=${pyArgCode(value)}`);
  const notes = ref.requiresApproval ? ['CrewAI has no approval step before a tool call'] : [];
  // Settings the class does not hold: what CrewAI reads back differs from what the tool had.
  const back = toolRefFromCrewAi(mapped.className, mapped.kwargs);
  const config = (r: ToolRef | undefined) => JSON.stringify(Object.entries(r?.config ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)));
  const lost = 'ref' in back && config(back.ref) !== config(ref) ? `${mapped.className} does not hold ${JSON.stringify(ref.config ?? {})}; imported back, the tool has ${JSON.stringify(back.ref.config ?? {})}` : undefined;
  return { ok: true, className: mapped.className, code: `${mapped.className}(${args.join(', ')})`, notes, ...(lost ? { lost } : {}) };
}

/** A keyword argument's value as Python source. */
export function pyArgCode(value: PyArg): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  if (Array.isArray(value)) return `[${value.map(pyArgCode).join(', ')}]`;
  // Python source from a document is never written out as code (a document is untrusted).
  if ('$python' in value) return 'None';
  return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pyArgCode(v as PyArg)}`).join(', ')}}`;
}
