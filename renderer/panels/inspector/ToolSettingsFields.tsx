import { useContext, useEffect, useEffectEvent, useState, type ReactElement } from 'react';
import { SEARCH_FILE_TYPES, SEARCH_PROVIDER_INFO, SEARCH_PROVIDERS, type SearchProvider } from '../../../shared/model/toolConfig';
import { isRecord } from '../../commands/crewDraft';
import { CheckField } from './CheckField';
import { controlId, Field, FieldProblems } from './Field';
import { NumberField } from './NumberField';
import { problemsAt, ProblemsContext } from './problemsContext';
import { SelectField, type Option } from './SelectField';
import { TextField } from './TextField';

type Config = Record<string, unknown>;

type Props = {
  tool: string;
  /** The tool reference's path (`agents.0.tools.2`); fields are at `<path>.config.<key>`. */
  path: string;
  config: unknown;
  /** The next config; undefined when no setting is left. */
  onChange(config: Config | undefined): void;
};

/** The built-in tools that have a settings form (the others have no settings). */
export const TOOLS_WITH_FORMS: readonly string[] = ['web_search', 'scrape_website', 'website_search', 'file_search', 'read_file', 'list_directory', 'write_file', 'http_request'];

/** The settings form of a built-in tool (toolConfig.ts), one field per setting; empty fields are left out of the file. */
export function ToolSettingsFields({ tool, path, config, onChange }: Props) {
  const form = FORMS[tool];
  if (!form) return null;
  const current: Config = isRecord(config) ? config : {};
  const patch = (changes: Config) => {
    const next: Config = { ...current };
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === '') delete next[key];
      else next[key] = value;
    }
    onChange(Object.keys(next).length > 0 ? next : undefined);
  };
  const kit = makeKit(tool, path, current, patch);
  const { nodes, keys } = form(kit);
  return (
    <div className="insp-tool-settings" data-testid={`tool-${tool}-settings`}>
      {nodes}
      <OtherSettingProblems path={`${path}.config`} known={keys} />
    </div>
  );
}

type TextExtra = { placeholder?: string; hint?: string; mono?: boolean };
type NumberExtra = { placeholder?: string; min?: number; step?: number; hint?: string };

interface FormKit {
  current: Config;
  patch(changes: Config): void;
  text(key: string, label: string, extra?: TextExtra): ReactElement;
  number(key: string, label: string, extra?: NumberExtra): ReactElement;
  /** `fallback`: the option an absent setting means. */
  select(key: string, label: string, options: Option[], extra?: { fallback?: string; hint?: string; onChange?(value: string): void }): ReactElement;
  check(key: string, label: string): ReactElement;
  list(key: string, label: string, extra: TextExtra): ReactElement;
  /** Two short fields side by side. */
  pair(first: ReactElement, second: ReactElement): ReactElement;
}
type Form = (kit: FormKit) => { nodes: ReactElement[]; keys: string[] };

function makeKit(tool: string, path: string, current: Config, patch: (changes: Config) => void): FormKit {
  const at = (key: string) => ({ path: `${path}.config.${key}`, testId: `tool-${tool}-${key}` });
  return {
    current,
    patch,
    text: (key, label, extra = {}) => (
      <TextField key={key} label={label} {...at(key)} value={current[key]} optional mono={extra.mono ?? true} placeholder={extra.placeholder} hint={extra.hint} onChange={(v) => patch({ [key]: v })} />
    ),
    number: (key, label, extra = {}) => (
      <NumberField key={key} label={label} {...at(key)} value={current[key]} placeholder={extra.placeholder} min={extra.min} step={extra.step} hint={extra.hint} onChange={(v) => patch({ [key]: v })} />
    ),
    select: (key, label, options, extra = {}) => (
      <SelectField
        key={key}
        label={label}
        {...at(key)}
        value={typeof current[key] === 'string' ? (current[key] as string) : (extra.fallback ?? '')}
        options={options}
        hint={extra.hint}
        exactProblems
        onChange={(v) => (extra.onChange ? extra.onChange(v) : patch({ [key]: v === extra.fallback ? undefined : v }))}
      />
    ),
    check: (key, label) => <CheckField key={key} label={label} {...at(key)} value={current[key]} defaultValue={false} onChange={(v) => patch({ [key]: v })} />,
    list: (key, label, extra) => <ListField key={key} label={label} {...at(key)} value={current[key]} {...extra} onChange={(v) => patch({ [key]: v })} />,
    pair: (first, second) => (
      <div key={`${String(first.key)}+${String(second.key)}`} className="insp-row">
        {first}
        {second}
      </div>
    ),
  };
}

const PINNED = 'the model gives it';
const LOCATION_KEYS = ['country', 'location', 'locale'] as const;

const FORMS: Record<string, Form> = {
  web_search: ({ current, patch, text, number, select, pair }) => {
    const provider: SearchProvider = (SEARCH_PROVIDERS as readonly unknown[]).includes(current.provider) ? (current.provider as SearchProvider) : 'serper';
    const info = SEARCH_PROVIDER_INFO[provider];
    // Another provider drops the settings it does not have (they would not validate, with no field to fix them).
    const changeProvider = (next: string) => {
      const has = SEARCH_PROVIDER_INFO[next as SearchProvider].has;
      patch({ provider: next === 'serper' ? undefined : next, ...Object.fromEntries(LOCATION_KEYS.filter((k) => !has[k]).map((k) => [k, undefined])) });
    };
    const nodes = [
      select(
        'provider',
        'Provider',
        SEARCH_PROVIDERS.map((p) => ({ value: p, label: SEARCH_PROVIDER_INFO[p].label })),
        { fallback: 'serper', hint: `Reads its key from ${info.keyVariable}.`, onChange: changeProvider },
      ),
      pair(
        number('resultCount', 'Results', { placeholder: 'default 10', min: 1 }),
        select(
          'searchType',
          'Search type',
          [
            { value: 'search', label: 'Web pages' },
            { value: 'news', label: 'News' },
          ],
          { fallback: 'search' },
        ),
      ),
      ...regional(info.has, { text, pair }),
      text('baseUrl', 'Base URL', { placeholder: info.baseUrl, hint: 'For a proxy. A host other than the provider’s is held until you trust the workspace.' }),
    ];
    return { nodes, keys: ['provider', 'resultCount', 'searchType', ...LOCATION_KEYS, 'baseUrl'] };
  },
  scrape_website: ({ current, patch, text, number, select }) => {
    const element = current.variant === 'element' || current.selector !== undefined;
    const nodes = [
      text('url', 'Page URL', { placeholder: PINNED, hint: 'Set it, and the model reads only this page.' }),
      select(
        'variant',
        'Returns',
        [
          { value: 'page', label: 'The page’s main text' },
          { value: 'element', label: 'What a CSS selector matches' },
        ],
        { fallback: 'page', onChange: (v) => patch(v === 'page' ? { variant: undefined, selector: undefined } : { variant: v }) },
      ),
      ...(element ? [text('selector', 'CSS selector', { placeholder: PINNED })] : []),
      number('maxChars', 'Max characters', { placeholder: 'default 20000', min: 100 }),
    ];
    return { nodes, keys: ['url', 'variant', 'selector', 'maxChars'] };
  },
  website_search: ({ text, number, pair }) => ({
    nodes: [text('url', 'Page URL', { placeholder: PINNED, hint: 'Set it, and the model searches only this page.' }), chunkLimits({ number, pair })],
    keys: ['url', 'limit', 'minScore'],
  }),
  file_search: ({ current, text, number, select, pair }) => {
    const folder = current.fileType === 'directory';
    const types = SEARCH_FILE_TYPES.map((t) => ({ value: t, label: t === 'directory' ? 'A folder (every file in it)' : t === 'mdx' ? 'Markdown / MDX' : t.toUpperCase() }));
    return {
      nodes: [
        select('fileType', 'File type', [{ value: '', label: 'Any supported file' }, ...types]),
        text('path', folder ? 'Folder' : 'File', { placeholder: PINNED, hint: `Workspace path. Set it, and the model searches only this ${folder ? 'folder' : 'file'}.` }),
        chunkLimits({ number, pair }),
      ],
      keys: ['fileType', 'path', 'limit', 'minScore'],
    };
  },
  read_file: ({ text }) => ({ nodes: [text('path', 'File', { placeholder: PINNED, hint: 'Workspace path. Set it, and the model reads only this file.' })], keys: ['path'] }),
  list_directory: ({ text, check }) => ({
    nodes: [text('path', 'Folder', { placeholder: PINNED, hint: 'Workspace path. Set it, and the model lists only this folder.' }), check('recursive', 'Always list sub-folders too')],
    keys: ['path', 'recursive'],
  }),
  write_file: ({ text, select, check }) => ({
    nodes: [
      text('path', 'File', { placeholder: PINNED, hint: 'Set it, and the model gives only the content.' }),
      text('directory', 'Inside folder', { placeholder: 'anywhere in the workspace' }),
      select(
        'argumentStyle',
        'Arguments',
        [
          { value: 'crewdeck', label: 'path, content, append' },
          { value: 'crewai', label: 'CrewAI’s: filename, content, directory, overwrite' },
        ],
        { fallback: 'crewdeck' },
      ),
      check('allowDocumentWrites', 'May change crewdeck.json, crews and flows'),
    ],
    keys: ['path', 'directory', 'argumentStyle', 'allowDocumentWrites'],
  }),
  http_request: ({ list, number }) => ({
    nodes: [
      list('allowedHosts', 'Allowed hosts', { placeholder: 'any public host', hint: 'Comma-separated, e.g. api.example.com, 127.0.0.1:8080.' }),
      number('timeoutMs', 'Timeout (ms)', { placeholder: 'default 30000', min: 1 }),
    ],
    keys: ['allowedHosts', 'timeoutMs'],
  }),
};

/** Country, location and language, as far as the provider has them; short ones side by side. */
function regional(has: { country: boolean; location: boolean; locale: boolean }, { text, pair }: Pick<FormKit, 'text' | 'pair'>): ReactElement[] {
  const country = has.country ? text('country', 'Country', { placeholder: 'us, de…' }) : undefined;
  const locale = has.locale ? text('locale', 'Language', { placeholder: 'en, fr…' }) : undefined;
  const short = country && locale ? [pair(country, locale)] : [country ?? locale].filter((f): f is ReactElement => f !== undefined);
  return [...short, ...(has.location ? [text('location', 'Location', { placeholder: 'Austin, Texas', mono: false })] : [])];
}

/** How many chunks a search returns, and the lowest score kept. */
function chunkLimits({ number, pair }: Pick<FormKit, 'number' | 'pair'>): ReactElement {
  return pair(number('limit', 'Results', { placeholder: 'default 5', min: 1 }), number('minScore', 'Min score (0–1)', { placeholder: 'default 0', min: 0, step: 0.05 }));
}

/** A list of strings typed comma-separated; the text is kept as typed (a trailing comma too) while it means the same list. */
function ListField({ label, path, value, placeholder, hint, testId, onChange }: { label: string; path: string; value: unknown; testId: string; onChange(v: string[] | undefined): void } & TextExtra) {
  const items = Array.isArray(value) ? value.map(String) : [];
  const [text, setText] = useState(items.join(', '));
  const parse = (t: string) => t.split(',').map((s) => s.trim()).filter(Boolean);
  const listed = items.join('\u0000');
  const showDocumentList = useEffectEvent(() => {
    // Changed from elsewhere (undo): show the document's list.
    if (parse(text).join('\u0000') !== listed) setText(items.join(', '));
  });
  useEffect(() => showDocumentList(), [listed]);
  const id = controlId(path);
  return (
    <Field label={label} htmlFor={id} path={path} hint={hint}>
      <input
        id={id}
        className="insp-input is-mono"
        value={text}
        placeholder={placeholder}
        data-testid={testId}
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          const list = parse(e.target.value);
          onChange(list.length > 0 ? list : undefined);
        }}
      />
    </Field>
  );
}

/** Problems about settings the form has no field for (an unknown key a file brought). */
function OtherSettingProblems({ path, known }: { path: string; known: string[] }) {
  const problems = useContext(ProblemsContext);
  const messages = problemsAt(problems, path).filter((m) => !known.some((k) => m.startsWith(`${k}:`) || m.startsWith(`${k}.`)));
  return <FieldProblems messages={messages} />;
}
