import type { DragEvent } from 'react';
import '../styles/canvas.css';
import { addAgent } from '../commands/addAgent';
import { addTask } from '../commands/addTask';
import { isFlowDocument } from '../model/documentKind';
import { useDocumentStore } from '../stores/documentStore';
import { FlowPalette } from './flow/FlowPalette';
import { AgentIcon, TaskIcon } from './icons';
import { PALETTE_MIME, type PaletteItem } from './paletteItem';

const ITEMS: { kind: PaletteItem; label: string; hint: string }[] = [
  { kind: 'agent', label: 'Agent', hint: 'Drag onto the canvas, or click to add an agent' },
  { kind: 'task', label: 'Task', hint: 'Drag onto the canvas, or click to add a task at the end of the order' },
];

/** Every hint in full, for the tooltip of the hint line (which shows only the hints that fit). */
const HINTS_TEXT = [
  'Drag from a task’s ▸ handle to an agent to assign the task',
  'Drag from a task’s ▾ handle to a later task to give it context',
  'Del deletes the selection',
  '⌘/Ctrl+Z undoes, ⌘/Ctrl+Shift+Z redoes',
  '⌘/Ctrl+C and ⌘/Ctrl+V copy and paste',
].join('\n');

/**
 * The palette strip above the canvas: drag "Agent" or "Task" onto the canvas (dropped at the cursor),
 * or click to add one under the others.
 */
export function Palette() {
  const isFlow = useDocumentStore((s) => isFlowDocument(s.doc));
  if (isFlow) return <FlowPalette />;
  return <CrewPalette />;
}

function CrewPalette() {
  const enabled = useDocumentStore((s) => s.doc !== undefined);
  const onDragStart = (event: DragEvent, kind: PaletteItem) => {
    event.dataTransfer.setData(PALETTE_MIME, kind);
    event.dataTransfer.effectAllowed = 'copy';
  };
  const add = (kind: PaletteItem) => useDocumentStore.getState().perform(kind === 'agent' ? addAgent() : addTask());
  return (
    <div className="palette" role="toolbar" aria-label="Palette" data-testid="palette">
      <span className="palette-title">Add</span>
      {ITEMS.map((item) => (
        <button
          key={item.kind}
          type="button"
          className={`palette-item is-${item.kind}`}
          draggable={enabled}
          disabled={!enabled}
          title={item.hint}
          data-testid={`palette-${item.kind}`}
          onDragStart={(e) => onDragStart(e, item.kind)}
          onClick={() => add(item.kind)}
        >
          <span className="palette-item-icon" aria-hidden>
            {item.kind === 'agent' ? <AgentIcon /> : <TaskIcon />}
          </span>
          {item.label}
        </button>
      ))}
      <span className="palette-hints" aria-hidden title={HINTS_TEXT} data-testid="palette-hints">
        <span>
          <kbd>▸</kbd> task handle → agent: assign
        </span>
        <span>
          <kbd>▾</kbd> task → later task: context
        </span>
        <span>
          <kbd>Del</kbd> delete
        </span>
        <span>
          <kbd>⌘/Ctrl Z</kbd> undo
        </span>
        <span>
          <kbd>⌘/Ctrl C V</kbd> copy, paste
        </span>
      </span>
    </div>
  );
}
