import { ReactFlowProvider } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import '../styles/canvas.css';
import { isFlowDocument } from '../model/documentKind';
import { useDocumentStore } from '../stores/documentStore';
import { CrewFlow } from './CrewFlow';
import { FlowCanvas } from './flow/FlowCanvas';
import { UnreadableDocument } from './UnreadableDocument';

/**
 * The canvas for the open document (a crew, or a flow): `documentStore.path`, opened with
 * `useDocumentStore.getState().open(path)`. Includes its own ReactFlowProvider.
 */
export function CrewCanvas() {
  const loadState = useDocumentStore((s) => s.loadState);
  const loadError = useDocumentStore((s) => s.loadError);
  const path = useDocumentStore((s) => s.path);
  const doc = useDocumentStore((s) => s.doc);
  const unreadable = useDocumentStore((s) => s.unreadable);

  if (loadState === 'error') {
    return (
      <div className="crew-canvas-message" role="alert" data-testid="canvas-load-error">
        <strong>Could not open {path}</strong>
        <span>{loadError}</span>
      </div>
    );
  }
  if (unreadable) return <UnreadableDocument key={`${path}`} unreadable={unreadable} />;
  if (loadState !== 'ready' || !doc) return <div className="crew-canvas-message is-loading">Opening…</div>;
  if (isFlowDocument(doc)) {
    return (
      <ReactFlowProvider key={path}>
        <FlowCanvas doc={doc} />
      </ReactFlowProvider>
    );
  }
  return (
    <ReactFlowProvider key={path}>
      <CrewFlow doc={doc} />
    </ReactFlowProvider>
  );
}
