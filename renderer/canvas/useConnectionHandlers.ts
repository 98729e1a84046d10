import { useCallback } from 'react';
import type { Connection, Edge, FinalConnectionState, Handle, IsValidConnection } from '@xyflow/react';
import type { DocumentCommand } from '../commands/command';
import type { DocumentDraft } from '../commands/documentDraft';
import { useDocumentStore } from '../stores/documentStore';
import { droppedOnNode } from './canvasChrome';

/** The ends of a connection being drawn (or of an edge React Flow asks about). */
export interface ConnectionEnds {
  source: string;
  target: string;
  sourceHandle?: string | null;
}

/** How a canvas's document takes connections. */
export interface CanvasConnections {
  /** The document allows it (React Flow refuses the others as they are drawn). */
  allows(doc: DocumentDraft, connection: ConnectionEnds): boolean;
  connect(connection: ConnectionEnds): DocumentCommand;
  /** A connection dragged from `from` and dropped on the body of the node `over`; undefined leaves it. */
  connectDropped(from: { node: string; handle: Handle | null }, over: string): DocumentCommand | undefined;
}

/** React Flow's connection callbacks for a document: checked by the document, performed as commands. `connections` is a module constant. */
export function useConnectionHandlers<E extends Edge>(connections: CanvasConnections) {
  const isValidConnection: IsValidConnection<E> = useCallback(
    (connection) => {
      const current = useDocumentStore.getState().doc;
      return current !== undefined && connections.allows(current, connection);
    },
    [connections],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      useDocumentStore.getState().perform(connections.connect(connection));
    },
    [connections],
  );

  // Dropping on a node's body (not its handle) connects too; an invalid drop says why.
  const onConnectEnd = useCallback(
    (event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (state.isValid) return;
      const over = droppedOnNode(event, state);
      if (!over || !state.fromNode) return;
      const command = connections.connectDropped({ node: state.fromNode.id, handle: state.fromHandle }, over);
      if (command) useDocumentStore.getState().perform(command);
    },
    [connections],
  );

  return { isValidConnection, onConnect, onConnectEnd };
}
