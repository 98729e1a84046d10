import { useEffect, useMemo, useRef, useState } from 'react';
import { useDocumentStore } from '../stores/documentStore';
import { useRunStore } from '../stores/runStore';
import { useUiStore } from '../stores/uiStore';
import { useWorkspaceStore } from '../stores/workspaceStore';
import { REVEAL_NODE_EVENT } from '../canvas/useRevealAdded';
import { commandItems, filterItems } from './commandItems';
import { useConnectModelStore } from './connect/connectModelStore';
import { useBatchRunStore } from '../dialogs/batchRun/batchRunStore';
import '../styles/command-palette.css';

/** The keys the `?` overlay lists (and the palette's own). */
export const SHORTCUTS: { keys: string; what: string }[] = [
  { keys: 'Ctrl/⌘ K', what: 'Find a node, document, run or command' },
  { keys: '?', what: 'This list of shortcuts' },
  { keys: 'Ctrl/⌘ Z · Ctrl/⌘ Shift Z', what: 'Undo · redo' },
  { keys: 'Ctrl/⌘ C · X · V', what: 'Copy · cut · paste nodes' },
  { keys: 'Ctrl/⌘ A', what: 'Select every node' },
  { keys: 'Delete / Backspace', what: 'Delete the selection' },
  { keys: 'Alt ↑ / ↓', what: 'Move the selected task in the order' },
  { keys: 'Shift drag', what: 'Select with a box' },
  { keys: 'Arrow keys on a grip', what: 'Resize a panel (Shift: bigger steps)' },
  { keys: 'Escape', what: 'Close a dialog or this overlay' },
];

const typing = (target: EventTarget | null) => target instanceof Element && target.closest('input, textarea, select, [contenteditable="true"]') != null;

/** Ctrl+K: find and go. `?`: the shortcuts. Both are overlays over the whole app. */
export function CommandPalette() {
  const [open, setOpen] = useState<'palette' | 'shortcuts' | undefined>(undefined);
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setOpen((o) => (o === 'palette' ? undefined : 'palette'));
      } else if (e.key === '?' && !e.ctrlKey && !e.metaKey && !typing(e.target)) {
        e.preventDefault();
        setOpen((o) => (o === 'shortcuts' ? undefined : 'shortcuts'));
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
  if (open === 'palette') return <Palette onClose={() => setOpen(undefined)} onShortcuts={() => setOpen('shortcuts')} />;
  if (open === 'shortcuts') return <Shortcuts onClose={() => setOpen(undefined)} />;
  return null;
}

function Palette({ onClose, onShortcuts }: { onClose(): void; onShortcuts(): void }) {
  const doc = useDocumentStore((s) => s.doc);
  const documents = useWorkspaceStore((s) => s.documents);
  const runs = useRunStore((s) => s.runs);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);

  const items = useMemo(() => {
    const ui = () => useUiStore.getState();
    return commandItems({
      doc,
      documents,
      runs,
      commands: [
        { label: 'Run…', detail: 'run the open document', run: () => ui().setRunDialogOpen(true) },
        { label: 'Run for each row…', detail: 'the open crew once per row of inputs', run: () => useBatchRunStore.getState().setOpen(true) },
        { label: 'Fit the canvas', run: () => ui().requestFitView() },
        { label: 'Canvas', detail: 'view', run: () => ui().setView('canvas') },
        { label: 'Training', detail: 'view', run: () => ui().setView('training') },
        { label: 'Tests', detail: 'view', run: () => ui().setView('tests') },
        { label: 'Memory', detail: 'view', run: () => ui().setView('memory') },
        { label: 'Settings', detail: 'view', run: () => ui().setView('settings') },
        { label: 'Connect a model…', detail: 'a local server, any OpenAI-compatible URL or an OpenAI key', run: () => useConnectModelStore.getState().setOpen(true) },
        { label: 'Toggle theme', run: () => ui().setTheme(ui().theme === 'dark' ? 'light' : 'dark') },
        { label: 'Keyboard shortcuts', detail: '?', run: onShortcuts },
      ],
      selectNode: (nodeId) => {
        ui().setView('canvas');
        ui().select([nodeId]);
        window.dispatchEvent(new CustomEvent(REVEAL_NODE_EVENT, { detail: nodeId }));
      },
      openDocument: (path) => void useDocumentStore.getState().open(path),
      openRun: (run) => void useRunStore.getState().openRun(run.id, run.documentPath),
    });
  }, [doc, documents, runs, onShortcuts]);
  const shown = useMemo(() => filterItems(items, query).slice(0, 60), [items, query]);
  const current = Math.min(active, Math.max(0, shown.length - 1));

  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const choose = (index: number) => {
    const item = shown[index];
    if (!item) return;
    onClose();
    item.run();
  };

  return (
    <div className="command-backdrop" onMouseDown={onClose}>
      <div className="command-palette" role="dialog" aria-label="Command palette" data-testid="command-palette" onMouseDown={(e) => e.stopPropagation()}>
        <input
          autoFocus
          className="command-input"
          data-testid="command-input"
          placeholder="Find a node, document, run or command…"
          aria-label="Find"
          role="combobox"
          aria-expanded
          aria-controls="command-results"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive(Math.min(current + 1, shown.length - 1));
            else if (e.key === 'ArrowUp') setActive(Math.max(current - 1, 0));
            else if (e.key === 'Enter') choose(current);
            else if (e.key === 'Escape') onClose();
            else return;
            e.preventDefault();
          }}
        />
        <ul className="command-results" id="command-results" role="listbox" ref={list}>
          {shown.length === 0 && <li className="command-empty">Nothing matches “{query}”.</li>}
          {shown.map((item, i) => (
            <li
              key={item.id}
              role="option"
              aria-selected={i === current}
              className="command-item"
              data-kind={item.kind}
              data-testid="command-item"
              onMouseEnter={() => setActive(i)}
              onClick={() => choose(i)}
            >
              <span className="command-kind">{item.kind}</span>
              <span className="command-label" title={item.label}>
                {item.label}
              </span>
              {item.detail && <span className="command-detail">{item.detail}</span>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function Shortcuts({ onClose }: { onClose(): void }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="command-backdrop" onMouseDown={onClose}>
      <div className="command-palette command-shortcuts" role="dialog" aria-label="Keyboard shortcuts" data-testid="shortcuts-overlay" onMouseDown={(e) => e.stopPropagation()}>
        <h2>Keyboard shortcuts</h2>
        <dl>
          {SHORTCUTS.map((s) => (
            <div key={s.keys} className="command-shortcut">
              <dt>
                <kbd>{s.keys}</kbd>
              </dt>
              <dd>{s.what}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
