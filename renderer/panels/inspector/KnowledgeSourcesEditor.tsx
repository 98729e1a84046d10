import '../../styles/inspector-knowledge.css';
import { KnowledgeSourceSchema } from '../../../shared/model/crew';
import { isRecord } from '../../commands/crewDraft';
import { FieldProblems } from './Field';
import { patchRecord } from './patchRecord';
import { useProblemsAt } from './problemsContext';
import { TextField } from './TextField';

type Source = Record<string, unknown>;
type SourceType = 'text' | 'file' | 'url';

type Props = {
  path: string;
  value: unknown;
  /** `editKey` names the field being typed into (`0.text`: one undo step per field); absent for add and remove. */
  onChange(value: Source[] | undefined, editKey?: string): void;
  /** Who reads these sources, for the empty state ("the crew's agents", "this agent"). */
  readers: string;
};

const KINDS: readonly { type: SourceType; label: string; addLabel: string }[] = [
  { type: 'text', label: 'Text', addLabel: '+ Text' },
  { type: 'file', label: 'File', addLabel: '+ File' },
  { type: 'url', label: 'URL', addLabel: '+ URL' },
];

/** Whether the schema lets this kind of source carry a display name (text sources always have one). */
function acceptsName(type: SourceType): boolean {
  return KnowledgeSourceSchema.options.some((o) => o.shape.type.value === type && 'name' in o.shape);
}

function titleOf(source: Source): string {
  const pick = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  switch (source.type) {
    case 'text':
      return pick(source.name) ?? 'Untitled text';
    case 'file':
      return pick(source.name) ?? pick(source.path) ?? 'No file chosen';
    case 'url':
      return pick(source.name) ?? pick(source.url) ?? 'No URL';
    default:
      return `Unknown source type ${JSON.stringify(source.type ?? null)}`;
  }
}

/**
 * Knowledge sources (SPEC §5): inline text, a workspace file (.txt, .md, .csv, .json, .pdf, .docx, .xml) or a URL.
 * They are chunked and embedded at run time; the best matches reach task prompts with the source name.
 */
export function KnowledgeSourcesEditor({ path, value, onChange, readers }: Props) {
  const list: Source[] = Array.isArray(value) ? (value as unknown[]).map((s) => (isRecord(s) ? s : {})) : [];
  const own = useProblemsAt(path, true);
  const patch = (index: number, field: string, v: unknown) =>
    onChange(
      list.map((s, i) => (i === index ? patchRecord(s, { [field]: v }) : s)),
      `${index}.${field}`,
    );
  const add = (type: SourceType) => {
    const made: Source =
      type === 'text' ? { type, name: nextTextName(list), text: '' } : type === 'file' ? { type, path: '' } : { type, url: '' };
    onChange([...list, made]);
  };
  const remove = (index: number) => {
    const next = list.filter((_, i) => i !== index);
    onChange(next.length > 0 ? next : undefined);
  };

  return (
    <div className="insp-list" data-testid={`knowledge-editor-${path}`}>
      <FieldProblems messages={own} />
      {list.length === 0 && <div className="insp-empty">No knowledge sources. Add text, a workspace file or a URL for {readers} to draw on.</div>}
      {list.map((source, i) => (
        <KnowledgeSourceCard key={i} path={`${path}.${i}`} index={i} source={source} onPatch={(field, v) => patch(i, field, v)} onRemove={() => remove(i)} />
      ))}
      <div className="insp-add-row" role="group" aria-label="Add knowledge source">
        {KINDS.map((k) => (
          <button key={k.type} type="button" className="btn insp-add" onClick={() => add(k.type)} data-testid={`add-knowledge-${k.type}`} aria-label={`Add ${k.label.toLowerCase()} knowledge source`}>
            {k.addLabel}
          </button>
        ))}
      </div>
    </div>
  );
}

function nextTextName(list: readonly Source[]): string {
  const names = new Set(list.map((s) => s.name));
  let n = list.filter((s) => s.type === 'text').length + 1;
  while (names.has(`Notes ${n}`)) n += 1;
  return `Notes ${n}`;
}

type CardProps = { path: string; index: number; source: Source; onPatch(field: string, value: unknown): void; onRemove(): void };

function KnowledgeSourceCard({ path, index, source, onPatch, onRemove }: CardProps) {
  // Problems about the entry itself (an unknown key, an unknown type) rather than one of its fields.
  const own = [...useProblemsAt(path, true), ...useProblemsAt(`${path}.type`, true)];
  const type = KINDS.find((k) => k.type === source.type);
  const showName = (t: SourceType) => acceptsName(t) || 'name' in source;
  return (
    <div className="insp-card insp-knowledge" data-testid="knowledge-source" data-type={type?.type ?? 'unknown'}>
      <div className="insp-card-head">
        <span className="insp-card-index">{index + 1}</span>
        <span className="insp-kind-badge" data-type={type?.type ?? 'unknown'}>
          {type?.label ?? '?'}
        </span>
        <span className="insp-card-title" title={titleOf(source)}>
          {titleOf(source)}
        </span>
        <button type="button" className="insp-icon-btn is-danger" aria-label={`Remove knowledge source ${index + 1}`} onClick={onRemove} data-testid="remove-knowledge">
          ×
        </button>
      </div>
      <FieldProblems messages={own} />
      {source.type === 'text' && (
        <>
          <TextField label="Name" path={`${path}.name`} value={source.name} onChange={(v) => onPatch('name', v ?? '')} testId="knowledge-name" hint="Shown with matches in prompts." />
          <TextField label="Text" path={`${path}.text`} value={source.text} multiline rows={4} onChange={(v) => onPatch('text', v ?? '')} testId="knowledge-text" />
        </>
      )}
      {source.type === 'file' && (
        <>
          <TextField
            label="Workspace file"
            path={`${path}.path`}
            value={source.path}
            mono
            placeholder="knowledge/handbook.pdf"
            hint=".txt, .md, .csv, .json, .pdf, .docx or .xml, relative to the workspace"
            onChange={(v) => onPatch('path', v ?? '')}
            testId="knowledge-path"
          />
          {showName('file') && (
            <TextField label="Name" path={`${path}.name`} value={source.name} optional placeholder="the file name" onChange={(v) => onPatch('name', v)} testId="knowledge-name" />
          )}
        </>
      )}
      {source.type === 'url' && (
        <>
          <TextField label="URL" path={`${path}.url`} value={source.url} mono placeholder="https://example.com/guide" onChange={(v) => onPatch('url', v ?? '')} testId="knowledge-url" />
          {showName('url') && <TextField label="Name" path={`${path}.name`} value={source.name} optional placeholder="the URL" onChange={(v) => onPatch('name', v)} testId="knowledge-name" />}
        </>
      )}
      {type === undefined && <div className="insp-empty">Crewdeck reads text, file and URL sources. Remove this one or fix it in the file.</div>}
    </div>
  );
}
