import type { FlowCommand } from '../command';
import type { Position } from '../crewDraft';
import { withMovedNodes } from '../moveNodes';

/** Saves the positions of a flow's methods and gates (the canvas records a drag once, when it ends). */
export function moveFlowNodes(positions: Readonly<Record<string, Position>>): FlowCommand {
  return { kind: 'flow', label: 'Move', perform: (doc) => withMovedNodes(doc, positions) };
}
