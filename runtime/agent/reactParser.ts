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
 */
export function parseReact(text: string): ReactStep {
  const thought = matchThought(text);
  const finalAt = finalAnswerAt(text);
  const final = readFinalAnswer(text);
  if (final && final.answer) return { kind: 'final', answer: final.answer, thought, readAs: final.readAs };
  const beforeInput = text.replace(ACTION_INPUT, '');
  const action = ACTION.exec(beforeInput);
  const inputMatch = ACTION_INPUT.exec(text);
  if (action && inputMatch) {
    // The name on the "Action:" line, or (as CrewAI reads it) on the first line after it.
    const tool = action[1].trim() || firstLine(beforeInput.slice(action.index + action[0].length));
    if (tool === '') return { kind: 'invalid', error: '"Action:" names no tool.' };
    const rawInput = stripObservation(inputMatch[1]);
    const read = readActionInput(rawInput);
    if (read === undefined) {
      return { kind: 'invalid', error: `Action Input for "${tool}" is not a JSON object: ${truncate(rawInput, 200)}` };
    }
    return { kind: 'action', tool, input: read.input, thought, text: text.slice(0, inputMatch.index + inputMatch[0].length).trim(), readAs: read.readAs };
  }
  if (action && !inputMatch) {
    return { kind: 'invalid', error: `"Action: ${action[1].trim()}" has no "Action Input:" line with the tool arguments as JSON.` };
  }
  if (finalAt >= 0) return { kind: 'invalid', error: '"Final Answer:" is empty.' };
  return {
    kind: 'invalid',
    error: 'Your reply has neither "Action:" with "Action Input:" nor "Final Answer:".',
  };
}

export function formatErrorObservation(error: string): string {
  return (
    `Invalid format: ${error}\n` +
    'Reply either with\nThought: ...\nAction: <tool name>\nAction Input: <JSON object>\n' +
    'or with\nThought: I now know the final answer\nFinal Answer: <the complete answer>'
  );
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
  return text.trim().split(/\r?\n/, 1)[0].trim();
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
