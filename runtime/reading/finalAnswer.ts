import type { ReadAs } from '../../shared/events';

const MARKER = /Final\s*Answer\s*:/gi;

export interface FinalAnswerReading {
  answer: string;
  readAs: ReadAs[];
}

/**
 * The final answer of a ReAct reply: the text after the **last** "Final Answer:" marker, with an
 * unmatched trailing code fence removed (a model that wrapped its whole reply in ``` leaves the closing
 * fence behind the answer). Undefined when the reply has no marker.
 */
export function readFinalAnswer(text: string): FinalAnswerReading | undefined {
  const markers = [...text.matchAll(MARKER)];
  const last = markers.at(-1);
  if (last === undefined) return undefined;
  const readAs: ReadAs[] = markers.length > 1 ? ['last-final-answer'] : [];
  let answer = text.slice(last.index + last[0].length).trim();
  if (answer.endsWith('```') && countFences(answer) % 2 === 1) {
    answer = answer.slice(0, -3).trimEnd();
    readAs.push('fenced-final-answer');
  }
  return { answer, readAs };
}

/** Where the first "Final Answer:" marker starts, or -1. */
export function finalAnswerAt(text: string): number {
  return text.search(/Final\s*Answer\s*:/i);
}

function countFences(text: string): number {
  return text.split('```').length - 1;
}
