import { jsonrepair } from 'jsonrepair';

export type ReactStep =
  | { kind: 'final'; answer: string; thought?: string }
  | { kind: 'action'; tool: string; input: Record<string, unknown>; thought?: string; text: string }
  | { kind: 'invalid'; error: string };

const FINAL = /Final\s*Answer\s*:/i;
const ACTION = /Action\s*\d*\s*:[ \t]*(.+?)[ \t]*(?:\r?\n|$)/i;
const ACTION_INPUT = /Action\s*\d*\s*Input\s*\d*\s*:\s*([\s\S]*)/i;

/**
 * Reads one ReAct reply. When a reply holds both an action and a final answer, the final answer wins.
 * Slightly malformed action input JSON is repaired.
 */
export function parseReact(text: string): ReactStep {
  const thought = matchThought(text);
  const finalAt = text.search(FINAL);
  if (finalAt >= 0) {
    const answer = text.slice(finalAt).replace(FINAL, '').trim();
    if (answer) return { kind: 'final', answer, thought };
  }
  const action = ACTION.exec(text.replace(ACTION_INPUT, ''));
  const inputMatch = ACTION_INPUT.exec(text);
  if (action && inputMatch) {
    const tool = action[1].trim().replace(/^["'`]|["'`]$/g, '');
    const rawInput = stripObservation(inputMatch[1]);
    const input = parseActionInput(rawInput);
    if (input === undefined) {
      return { kind: 'invalid', error: `Action Input for "${tool}" is not a JSON object: ${truncate(rawInput, 200)}` };
    }
    return { kind: 'action', tool, input, thought, text: text.slice(0, inputMatch.index + inputMatch[0].length).trim() };
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
  const m = /Thought\s*:\s*([\s\S]*?)(?:\n\s*(?:Action|Final\s*Answer)\s*:|$)/i.exec(text);
  return m ? m[1].trim() || undefined : undefined;
}

function stripObservation(raw: string): string {
  const cut = raw.search(/\n\s*Observation\s*:/i);
  let s = (cut >= 0 ? raw.slice(0, cut) : raw).trim();
  s = s.replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '').trim();
  return s;
}

/** JSON object from the model's action input, repaired when slightly malformed. */
export function parseActionInput(raw: string): Record<string, unknown> | undefined {
  const text = raw.trim();
  if (text === '') return {};
  for (const attempt of [text, () => jsonrepair(text)]) {
    try {
      const source = typeof attempt === 'string' ? attempt : attempt();
      const value: unknown = JSON.parse(source);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
      return undefined;
    } catch {
      // try the next strategy
    }
  }
  return undefined;
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
