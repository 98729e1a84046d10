import type { ReadAs } from '../../shared/events';
import { finalAnswerAt, readFinalAnswer } from '../reading/finalAnswer';
import { readJson } from '../reading/jsonValue';

export type ReactStep =
  | { kind: 'final'; answer: string; thought?: string; readAs: ReadAs[] }
  | { kind: 'action'; tool: string; input: Record<string, unknown>; thought?: string; text: string; readAs: ReadAs[] }
  | { kind: 'invalid'; error: string };

// Model output is untrusted: no two adjacent optional runs that can share characters (no backtracking
// blow-up on long runs of spaces or newlines); values are trimmed in code (test/security/readingBounds).
const ACTION = /Action[\s\d]*:([^\r\n]*)/i;
const ACTION_INPUT = /Action[\s\d]*Input[\s\d]*:([\s\S]*)/i;
const THOUGHT = /Thought\s*:/i;
const THOUGHT_END = /\n[^\S\n]*(?:Action[\s\d]*|Final\s*Answer\s*):/i;

/**
 * Reads one ReAct reply. When a reply holds both an action and a final answer, the final answer wins
 * (the text after the last "Final Answer:", see reading/finalAnswer). Action input is read as the first
 * JSON object after "Action Input:", repaired when slightly malformed. The tool name is as written:
 * the executor resolves it (reading/toolName).
 *
 * A reply that is neither an action (an "Action:" with its "Action Input:") nor a final answer is the
 * final answer as written, as CrewAI 1.x reads it — an "Action:" line without an input included (prose
 * may well hold "Action:"). Only an empty reply, an empty "Final Answer:" and an action whose name or
 * input cannot be read are format errors the agent is told about.
 */
export function parseReact(text: string): ReactStep {
  const thought = matchThought(text);
  const finalAt = finalAnswerAt(text);
  const final = readFinalAnswer(text);
  if (final && final.answer) return { kind: 'final', answer: final.answer, thought, readAs: final.readAs };
  if (text.trim() === '') return { kind: 'invalid', error: 'Your reply is empty.' };
  const beforeInput = text.replace(ACTION_INPUT, '');
  const action = ACTION.exec(beforeInput);
  const inputMatch = ACTION_INPUT.exec(text);
  if (action && inputMatch) {
    // The name on the "Action:" line, or (as CrewAI reads it) on the first line after it.
    const tool = action[1]!.trim() || firstLine(beforeInput.slice(action.index + action[0].length));
    if (tool === '') return { kind: 'invalid', error: '"Action:" names no tool.' };
    const rawInput = stripObservation(inputMatch[1]!);
    const read = readActionInput(rawInput);
    if (read === undefined) {
      return { kind: 'invalid', error: `Action Input for "${tool}" is not a JSON object: ${truncate(rawInput, 200)}` };
    }
    return { kind: 'action', tool, input: read.input, thought, text: text.slice(0, inputMatch.index + inputMatch[0].length).trim(), readAs: read.readAs };
  }
  if (finalAt >= 0) return { kind: 'invalid', error: '"Final Answer:" is empty.' };
  return { kind: 'final', answer: text.trim(), thought, readAs: [] };
}

/** What the agent is told about a reply it must write again; an agent without tools is shown only the final-answer form. */
export function formatErrorObservation(error: string, withTools = true): string {
  const finalForm = 'Thought: I now know the final answer\nFinal Answer: <the complete answer>';
  if (!withTools) return `Invalid format: ${error}\nReply with\n${finalForm}`;
  return `Invalid format: ${error}\nReply either with\nThought: ...\nAction: <tool name>\nAction Input: <JSON object>\nor with\n${finalForm}`;
}

function matchThought(text: string): string | undefined {
  const m = THOUGHT.exec(text);
  if (!m) return undefined;
  const rest = text.slice(m.index + m[0].length);
  const end = rest.search(THOUGHT_END);
  return (end >= 0 ? rest.slice(0, end) : rest).trim() || undefined;
}

function stripObservation(raw: string): string {
  const cut = raw.search(/\n[^\S\n]*Observation\s*:/i);
  return (cut >= 0 ? raw.slice(0, cut) : raw).trim();
}

/** JSON object from the model's action input (fenced, among prose or slightly malformed). */
export function parseActionInput(raw: string): Record<string, unknown> | undefined {
  return readActionInput(raw)?.input;
}

/** The action input's object and how it was read (fenced, repaired, encoded twice, …). */
export function readActionInput(raw: string): { input: Record<string, unknown>; readAs: ReadAs[] } | undefined {
  const text = raw.trim();
  if (text === '' || /^```[a-z]*\s*```$/i.test(text)) return { input: {}, readAs: [] };
  const read = readJson(text);
  if (!read.ok) return undefined;
  // Arguments encoded twice (a JSON string holding the object: some local servers and models do it).
  if (typeof read.value === 'string' && /^\s*[{`]/.test(read.value)) {
    const inner = readActionInput(read.value);
    return inner && { input: inner.input, readAs: [...read.readAs, 'json-in-string', ...inner.readAs] };
  }
  if (read.value === null || typeof read.value !== 'object' || Array.isArray(read.value)) return undefined;
  return { input: read.value as Record<string, unknown>, readAs: read.readAs };
}

function firstLine(text: string): string {
  return text.trim().split(/\r?\n/, 1)[0]!.trim();
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
