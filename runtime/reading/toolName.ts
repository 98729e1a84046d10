import type { ReadAs } from '../../shared/events';
import { matchName, normaliseName } from '../agent/fuzzyMatch';

/** CrewAI's names of the delegation tools, as its ReAct prompts teach them, and Crewdeck's. */
const CREWAI_TOOL_NAMES: Readonly<Record<string, string>> = {
  'delegate work to coworker': 'delegate_work',
  'ask question to coworker': 'ask_question',
};

export interface ToolNameReading<T> {
  tool: T;
  /** The arguments in the shape the tool expects (CrewAI's delegation arguments adapted). */
  args: Record<string, unknown>;
  readAs: ReadAs[];
}

/** A tool name without markdown emphasis, backticks or quotes around it. */
export function cleanToolName(name: string): string {
  // Trimmed by index, not with /[…]+$/ (quadratic on a long run of such characters in untrusted text).
  let start = 0;
  let end = name.length;
  while (start < end && WRAPPING.test(name[start]!)) start++;
  while (end > start && WRAPPING.test(name[end - 1]!)) end--;
  return name.slice(start, end);
}

const WRAPPING = /[*`"'“”‘’\s]/;

/** No tool has a longer name; a longer "name" is prose and is not compared (edit distance is quadratic). */
const MAX_TOOL_NAME = 256;

/**
 * Finds the tool a model named: `**`, backticks and quotes stripped, case-insensitive, CrewAI's
 * delegation tool names mapped to Crewdeck's. With `fuzzy`, a near miss also matches (ReAct names);
 * without it only an exact normalised name does (a reply read as a tool call must name one exactly).
 */
export function resolveToolName<T>(
  written: string,
  args: Record<string, unknown>,
  tools: readonly T[],
  nameOf: (t: T) => string,
  { fuzzy }: { fuzzy: boolean },
): ToolNameReading<T> | undefined {
  const cleaned = cleanToolName(written);
  if (cleaned.length > MAX_TOOL_NAME) return undefined;
  const readAs: ReadAs[] = [];
  if (cleaned !== written.trim()) readAs.push('tool-name-cleaned');
  const crewAi = CREWAI_TOOL_NAMES[normaliseName(cleaned)];
  const wanted = crewAi ?? cleaned;
  const exact = tools.find((t) => normaliseName(nameOf(t)) === normaliseName(wanted));
  const tool = exact ?? (fuzzy ? matchName(wanted, tools, nameOf) : undefined);
  if (tool === undefined) return undefined;
  if (crewAi && nameOf(tool) === crewAi) readAs.push('crewai-tool-name');
  else if (nameOf(tool) !== cleaned && !readAs.includes('tool-name-cleaned')) readAs.push('tool-name-cleaned');
  return { tool, args: crewAi && nameOf(tool) === crewAi ? delegationArgs(crewAi, args) : args, readAs };
}

/**
 * CrewAI's delegation tools take `{task, context, coworker}` (ask: `{question, context, coworker}`);
 * models also write `{task}` for a question. Objects given for text fields become JSON text.
 */
function delegationArgs(tool: string, args: Record<string, unknown>): Record<string, unknown> {
  const text = (v: unknown) => (v === undefined || typeof v === 'string' ? v : JSON.stringify(v));
  const main = tool === 'ask_question' ? 'question' : 'task';
  const out: Record<string, unknown> = {};
  out[main] = text(args[main] ?? args.task ?? args.question);
  if (args.context !== undefined) out.context = text(args.context);
  out.coworker = text(args.coworker ?? args.co_worker ?? args['co-worker']);
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}
