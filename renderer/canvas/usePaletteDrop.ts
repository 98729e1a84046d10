import { useCallback, type DragEvent } from 'react';
import { useReactFlow, type XYPosition } from '@xyflow/react';
import type { DocumentCommand } from '../commands/command';
import { useDocumentStore } from '../stores/documentStore';

/** What a canvas's palette drops: its drag data type, the item it carries, the width of the node it adds and the command that adds it. */
export interface PaletteDrop<T extends string> {
  mime: string;
  /** The dragged item, or undefined when the data is not one (the drop is left to the browser). */
  read(data: string): T | undefined;
  width(item: T): number;
  add(item: T, position: XYPosition): DocumentCommand;
}

/**
 * Dragging from the palette onto the canvas: a copy cursor over it, and the item added where it is
 * dropped (the node centred on the pointer, its top 20px above it). `palette` is a module constant.
 */
export function usePaletteDrop<T extends string>(palette: PaletteDrop<T>) {
  const flow = useReactFlow();

  const onDragOver = useCallback(
    (event: DragEvent) => {
      if (!event.dataTransfer.types.includes(palette.mime)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    [palette],
  );

  const onDrop = useCallback(
    (event: DragEvent) => {
      const item = palette.read(event.dataTransfer.getData(palette.mime));
      if (item === undefined) return;
      event.preventDefault();
      const point = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      const position = { x: Math.round(point.x - palette.width(item) / 2), y: Math.round(point.y - 20) };
      useDocumentStore.getState().perform(palette.add(item, position));
    },
    [flow, palette],
  );

  return { onDragOver, onDrop };
}
