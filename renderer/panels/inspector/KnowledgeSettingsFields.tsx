import '../../styles/inspector-knowledge.css';
import { isRecord } from '../../commands/crewDraft';
import { NumberField } from './NumberField';
import { patchRecord } from './patchRecord';

type Props = {
  path: string;
  value: unknown;
  /** The next settings (`undefined` when none is left, so every default applies); `editKey` names the field typed into. */
  onChange(value: Record<string, unknown> | undefined, editKey: string): void;
};

/** How the crew's knowledge is chunked and how many matches reach a task prompt; empty fields use the defaults. */
export function KnowledgeSettingsFields({ path, value, onChange }: Props) {
  const settings = isRecord(value) ? value : {};
  const set = (field: string, v: number | undefined) => {
    const next = patchRecord(settings, { [field]: v });
    onChange(Object.keys(next).length > 0 ? next : undefined, field);
  };
  return (
    <div className="insp-group insp-knowledge-settings" data-testid="knowledge-settings">
      <div className="insp-subhead">Retrieval and chunking (also for the agents’ own sources)</div>
      <div className="insp-row">
        <NumberField label="Matches per task" path={`${path}.limit`} value={settings.limit} min={1} placeholder="5" onChange={(v) => set('limit', v)} testId="field-knowledge-limit" />
        <NumberField
          label="Minimum score"
          path={`${path}.minScore`}
          value={settings.minScore}
          min={0}
          step={0.05}
          placeholder="0.2"
          onChange={(v) => set('minScore', v)}
          testId="field-knowledge-minScore"
        />
      </div>
      <div className="insp-row">
        <NumberField label="Chunk size (chars)" path={`${path}.chunkSize`} value={settings.chunkSize} min={100} placeholder="4000" onChange={(v) => set('chunkSize', v)} testId="field-knowledge-chunkSize" />
        <NumberField
          label="Chunk overlap (chars)"
          path={`${path}.chunkOverlap`}
          value={settings.chunkOverlap}
          min={0}
          placeholder="200"
          onChange={(v) => set('chunkOverlap', v)}
          testId="field-knowledge-chunkOverlap"
        />
      </div>
    </div>
  );
}
