import type { ReadAs } from '../../../../shared/events';

/** In words, for the trace: how a lenient reading changed what the model literally wrote. */
const LABELS: Record<ReadAs, string> = {
  'last-final-answer': 'the last of several "Final Answer:" markers',
  'fenced-final-answer': 'final answer without a stray code fence',
  'fenced-json': 'JSON from a code fence',
  'json-in-prose': 'JSON from among prose',
  'repaired-json': 'repaired JSON',
  'json-in-string': 'arguments written as a JSON string',
  'outcome-name': 'outcome name in other case or quotes',
  'outcome-line': 'outcome from an "Outcome:" line',
  'outcome-word': 'the only outcome word in the reply',
  'text-tool-call': 'tool call read from text',
  'tool-name-cleaned': 'tool name with markdown, quotes or case cleaned',
  'crewai-tool-name': "CrewAI's name for the tool",
  'converted-json': 'JSON from a conversion call (the reply was prose)',
};

/** A "Read as" fact, or undefined (so Facts leaves it out) when the reply was read as written. */
export function ReadAsFact({ readAs }: { readAs: readonly ReadAs[] | undefined }) {
  if (!readAs?.length) return undefined;
  return (
    <span className="detail-read-as" data-testid="read-as" title="The model's reply was read leniently (README: Local models)">
      {readAs.map((r) => LABELS[r] ?? r).join('; ')}
    </span>
  );
}

/** `['Read as', …]` for a Facts list. */
export function readAsFact(readAs: readonly ReadAs[] | undefined): [string, ReturnType<typeof ReadAsFact>] {
  return ['Read as', readAs?.length ? <ReadAsFact readAs={readAs} /> : undefined];
}
