import type { SpanKind } from '../../stores/runView';

/** 16×16 stroke paths, one per span kind; coloured by `.span-icon[data-kind]` in trace.css. */
const PATHS: Record<SpanKind, string> = {
  run: 'M5 3.5v9l7-4.5z',
  planning: 'M3 4h10M3 8h7M3 12h9',
  method: 'M2.5 5.5h4v5h-4zM9.5 3h4v4h-4zM9.5 10h4v4h-4zM6.5 8h1.5M8 5v6M8 5h1.5M8 11h1.5',
  item: 'M3 4.5h2M3 8h2M3 11.5h2M7 4.5h6M7 8h6M7 11.5h6',
  task: 'M3.5 3.5h9v9h-9zM6 8l1.5 1.5L10.5 6.5',
  agent: 'M8 8.2a2.6 2.6 0 1 0 0-5.2 2.6 2.6 0 0 0 0 5.2zM3 13.5c.6-2.4 2.6-3.6 5-3.6s4.4 1.2 5 3.6',
  llm: 'M8 2.5l1.3 3.9 3.9 1.3-3.9 1.3L8 12.9l-1.3-3.9-3.9-1.3 3.9-1.3z',
  tool: 'M10.2 2.8a3 3 0 0 0-3.6 4L2.8 10.6a1.2 1.2 0 0 0 1.7 1.7l3.8-3.8a3 3 0 0 0 4-3.6l-1.8 1.8-1.5-.4-.4-1.5z',
  delegation: 'M2.5 8h9M8.5 4.5L12 8l-3.5 3.5M13.5 3v10',
  guardrail: 'M8 2l5 2v4c0 3-2.2 5.1-5 6-2.8-.9-5-3-5-6V4z',
  human: 'M8 7.5a2.3 2.3 0 1 0 0-4.6 2.3 2.3 0 0 0 0 4.6zM4 13.5v-1A3 3 0 0 1 7 9.5h2a3 3 0 0 1 3 3v1',
  retry: 'M12.5 8a4.5 4.5 0 1 1-1.3-3.2M12.5 2.8v2.6H9.9',
  memory: 'M3 4.5c0-1.1 2.2-2 5-2s5 .9 5 2-2.2 2-5 2-5-.9-5-2zM3 4.5v7c0 1.1 2.2 2 5 2s5-.9 5-2v-7M3 8c0 1.1 2.2 2 5 2s5-.9 5-2',
};

export const SPAN_KIND_LABEL: Record<SpanKind, string> = {
  run: 'Run',
  planning: 'Planning',
  method: 'Flow method',
  item: 'For-each item',
  task: 'Task',
  agent: 'Agent',
  llm: 'Model call',
  tool: 'Tool call',
  delegation: 'Delegation',
  guardrail: 'Guardrail',
  human: 'Human',
  retry: 'Retry',
  memory: 'Memory write',
};

export function SpanIcon({ kind }: { kind: SpanKind }) {
  return (
    <span className="span-icon" data-kind={kind} title={SPAN_KIND_LABEL[kind]} aria-hidden>
      <svg viewBox="0 0 16 16" width="12" height="12">
        <path d={PATHS[kind]} fill={kind === 'run' || kind === 'llm' ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
}
