import type { ClipboardEvent } from 'react';
import type { CrewInput } from '../crewInputs';

/** Where rows come from besides typing: a box to paste them into, and a .csv / .tsv / .jsonl file. */
export function BatchRowSources({ inputs, onText }: { inputs: CrewInput[]; onText(text: string, source: string, fileName?: string): void }) {
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const text = e.clipboardData.getData('text/plain');
    if (!text) return;
    e.preventDefault();
    onText(text, 'The pasted rows');
  };

  return (
    <div className="batch-sources">
      <textarea
        className="dialog-textarea batch-paste"
        data-testid="batch-paste"
        rows={2}
        placeholder={`Paste rows here (Ctrl+V), e.g.\n${inputs.map((i) => i.name).join('\t')}`}
        value=""
        onChange={() => undefined}
        onPaste={onPaste}
        aria-label="Paste rows"
      />
      <label className="btn batch-file">
        Load .csv / .tsv / .jsonl…
        <input
          type="file"
          data-testid="batch-file"
          accept=".csv,.tsv,.jsonl,text/csv,text/tab-separated-values"
          hidden
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void file.text().then((text) => onText(text, file.name, file.name));
          }}
        />
      </label>
    </div>
  );
}
