import type { DragEvent } from 'react';
import '../../styles/canvas.css';
import '../../styles/flow.css';
import { addMethod } from '../../commands/flow/addMethod';
import { useDocumentStore } from '../../stores/documentStore';
import { useUiStore } from '../../stores/uiStore';
import { BodyIcon } from './BodyIcon';
import { FLOW_PALETTE_ITEMS, FLOW_PALETTE_MIME } from './flowPaletteItems';

const HINTS_TEXT = [
  'Drag from a method’s right handle to another method: it runs when this one completes',
  'Drag from a router’s route handle: the method runs when that route is chosen',
  'A second connection into a method makes an "or" gate; switch it to "and" in the inspector',
  'Drop a connection on a gate to add a member',
  'Del deletes the selection; ⌘/Ctrl+Z undoes',
].join('\n');

/** The palette for flows: one item per body kind and a router; drag onto the canvas or click to add. */
export function FlowPalette() {
  const onDragStart = (event: DragEvent, template: string) => {
    event.dataTransfer.setData(FLOW_PALETTE_MIME, template);
    event.dataTransfer.effectAllowed = 'copy';
  };
  return (
    <div className="palette flow-palette" role="toolbar" aria-label="Palette" data-testid="palette">
      <span className="palette-title">Add</span>
      {FLOW_PALETTE_ITEMS.map((item) => (
        <button
          key={item.template}
          type="button"
          className={`palette-item flow-palette-item is-${item.template}`}
          draggable
          title={`${item.hint}. Drag onto the canvas, or click to add.`}
          data-testid={`palette-${item.template}`}
          onDragStart={(e) => onDragStart(e, item.template)}
          onClick={() => useDocumentStore.getState().perform(addMethod(item.template, undefined, selectedMethodNode()))}
        >
          <span className="palette-item-icon" aria-hidden>
            <BodyIcon kind={item.template} size={13} />
          </span>
          {item.label}
        </button>
      ))}
      <span className="palette-hints" aria-hidden title={HINTS_TEXT} data-testid="palette-hints">
        <span>
          <kbd>●→</kbd> output → method: listen
        </span>
        <span>
          <kbd>Del</kbd> delete
        </span>
        <span>
          <kbd>⌘/Ctrl Z</kbd> undo
        </span>
      </span>
    </div>
  );
}

/** The one method selected on the canvas, if exactly one is: a method added now listens to it. */
export function selectedMethodNode(): string | undefined {
  const selected = useUiStore.getState().selectedNodeIds;
  return selected.length === 1 && selected[0]?.startsWith('method:') ? selected[0] : undefined;
}
