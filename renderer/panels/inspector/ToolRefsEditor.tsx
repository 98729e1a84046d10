import { useState } from 'react';
import { BUILTIN_TOOLS } from '../../../shared/model/tool';
import { isRecord } from '../../commands/crewDraft';
import { CheckField } from './CheckField';
import { controlId, FieldProblems } from './Field';
import { JsonField } from './JsonField';
import { NumberField } from './NumberField';
import { TextField } from './TextField';
import { ToolSettingsFields, TOOLS_WITH_FORMS } from './ToolSettingsFields';
import { useProblemsAt } from './problemsContext';
import { useMcpTools } from './useMcpTools';

type Props = {
  path: string;
  value: unknown;
  onChange(value: Record<string, unknown>[]): void;
};

const DESCRIPTIONS: Record<string, string> = {
  read_file: 'Read a file in the workspace',
  write_file: 'Write a file in the workspace',
  list_directory: 'List a workspace folder',
  http_request: 'Make an HTTP request',
  calculator: 'Evaluate arithmetic',
  current_time: 'Current date and time',
  search_memory: 'Search the crew\'s memory',
  save_memory: 'Save to the crew\'s memory',
  web_search: 'Search the web (Serper, Tavily, Brave, Exa)',
  scrape_website: 'Read a web page as text',
  website_search: 'Search a web page for an answer',
  file_search: 'Search a file (CSV, PDF, DOCX…) for an answer',
};

/**
 * ToolRefs: the built-in tools as a checklist; a checked tool shows its options (approval, result as
 * answer, usage limit, config). Other tools (MCP `mcp:server/tool`) are listed and can be added by name.
 */
export function ToolRefsEditor({ path, value, onChange }: Props) {
  const refs = Array.isArray(value) ? (value as unknown[]) : [];
  const records = refs.map((r) => (isRecord(r) ? r : {}));
  const [custom, setCustom] = useState('');
  const ownProblems = useProblemsAt(path, true);
  const mcpOffered = useMcpTools().filter((t) => !records.some((r) => r.tool === t.name));

  const toggle = (tool: string, on: boolean) => {
    if (on) onChange([...records, { tool }]);
    else onChange(records.filter((r) => r.tool !== tool));
  };
  const patchAt = (index: number, patch: Record<string, unknown>) =>
    onChange(
      records.map((r, i) => {
        if (i !== index) return r;
        const next: Record<string, unknown> = { ...r };
        for (const [k, v] of Object.entries(patch)) {
          if (v === undefined) delete next[k];
          else next[k] = v;
        }
        return next;
      }),
    );
  const others = records.map((r, i) => ({ r, i })).filter(({ r }) => !(BUILTIN_TOOLS as readonly string[]).includes(String(r.tool)));

  return (
    <div className="insp-tools" data-testid={`${controlId(path)}-tools`}>
      <FieldProblems messages={ownProblems} />
      {BUILTIN_TOOLS.map((tool) => {
        const index = records.findIndex((r) => r.tool === tool);
        const record = records[index];
        const id = `${controlId(path)}-${tool}`;
        return (
          <div key={tool} className="insp-tool" data-on={index >= 0 || undefined}>
            <div className="insp-tool-head">
              <input id={id} type="checkbox" checked={index >= 0} onChange={(e) => toggle(tool, e.target.checked)} data-testid={`tool-${tool}`} />
              <label htmlFor={id}>
                <span className="insp-tool-name">{tool}</span>
                <span className="insp-tool-desc" title={DESCRIPTIONS[tool]}>
                  {DESCRIPTIONS[tool]}
                </span>
              </label>
            </div>
            {record !== undefined && <ToolOptions path={`${path}.${index}`} value={record} onPatch={(p) => patchAt(index, p)} />}
          </div>
        );
      })}
      {mcpOffered.map((t) => (
        <div key={t.name} className="insp-tool">
          <div className="insp-tool-head">
            <input id={`${controlId(path)}-${t.name}`} type="checkbox" checked={false} onChange={(e) => toggle(t.name, e.target.checked)} data-testid={`tool-${t.name}`} />
            <label htmlFor={`${controlId(path)}-${t.name}`}>
              <span className="insp-tool-name">{t.name}</span>
              <span className="insp-tool-desc" title={t.description}>
                {t.description.split(/(?<=\.)\s/)[0]}
              </span>
            </label>
          </div>
        </div>
      ))}
      {others.map(({ r, i }) => (
        <div key={`other-${i}`} className="insp-tool" data-on>
          <div className="insp-tool-head">
            <span className="insp-tool-name">{String(r.tool ?? '?')}</span>
            <button type="button" className="insp-link" onClick={() => onChange(records.filter((_, j) => j !== i))} aria-label={`Remove ${String(r.tool)}`}>
              Remove
            </button>
          </div>
          <ToolOptions path={`${path}.${i}`} value={r} onPatch={(p) => patchAt(i, p)} />
        </div>
      ))}
      <div className="insp-inline-add">
        <label className="sr-only" htmlFor={`${controlId(path)}-custom`}>
          Other tool name
        </label>
        <input
          id={`${controlId(path)}-custom`}
          className="insp-input is-mono"
          placeholder="mcp:server/tool"
          value={custom}
          onChange={(e) => setCustom(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && custom.trim()) {
              onChange([...records, { tool: custom.trim() }]);
              setCustom('');
            }
          }}
        />
        <button
          type="button"
          className="btn"
          disabled={!custom.trim()}
          onClick={() => {
            onChange([...records, { tool: custom.trim() }]);
            setCustom('');
          }}
        >
          Add tool
        </button>
      </div>
    </div>
  );
}

function ToolOptions({ path, value, onPatch }: { path: string; value: Record<string, unknown>; onPatch(patch: Record<string, unknown>): void }) {
  const problems = useProblemsAt(`${path}.tool`);
  const tool = String(value.tool ?? '');
  const builtin = (BUILTIN_TOOLS as readonly string[]).includes(tool);
  return (
    <div className="insp-tool-options">
      <FieldProblems messages={problems} />
      {TOOLS_WITH_FORMS.includes(tool) ? (
        <ToolSettingsFields tool={tool} path={path} config={value.config} onChange={(config) => onPatch({ config })} />
      ) : (
        !builtin && <JsonField label="Config (JSON)" path={`${path}.config`} value={value.config} expect="object" rows={3} placeholder="{ }" onChange={(v) => onPatch({ config: v })} />
      )}
      <CheckField label="Ask before each use" path={`${path}.requiresApproval`} value={value.requiresApproval} defaultValue={false} onChange={(v) => onPatch({ requiresApproval: v })} />
      <CheckField label="Result is the final answer" path={`${path}.resultAsAnswer`} value={value.resultAsAnswer} defaultValue={false} onChange={(v) => onPatch({ resultAsAnswer: v })} />
      <NumberField label="Max uses" path={`${path}.maxUsageCount`} value={value.maxUsageCount} min={1} placeholder="unlimited" onChange={(v) => onPatch({ maxUsageCount: v })} />
      <ToolNaming path={path} value={value} placeholder={builtin ? tool : "the tool's own"} onPatch={onPatch} />
      {isRecord(value.config) && value.config.allowDocumentWrites === true && (
        <p className="insp-warning" role="alert" data-testid={`${controlId(path)}-document-writes-warning`}>
          Warning: allowDocumentWrites lets this tool rewrite crewdeck.json, crews, flows and the files they use, so a model can change
          what later runs do. Keep it only for a crew that is meant to write crews.
        </p>
      )}
    </div>
  );
}

/** The name and description the model sees instead of the tool's own (CrewAI's `name=`, `description=`), folded away until set. */
function ToolNaming({ path, value, placeholder, onPatch }: { path: string; value: Record<string, unknown>; placeholder: string; onPatch(patch: Record<string, unknown>): void }) {
  const [open, setOpen] = useState(value.name !== undefined || value.description !== undefined);
  return (
    <details className="insp-tool-naming" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Name and description the model sees</summary>
      <TextField label="Name" path={`${path}.name`} value={value.name} optional mono placeholder={placeholder} onChange={(v) => onPatch({ name: v })} />
      <TextField label="Description" path={`${path}.description`} value={value.description} optional multiline rows={2} placeholder="the tool's own" onChange={(v) => onPatch({ description: v })} />
    </details>
  );
}
