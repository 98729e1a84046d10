import { ReactFlowProvider } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import '../styles/canvas.css';
import { isFlowDocument } from '../model/documentKind';
import { useDocumentStore } from '../stores/documentStore';
import { useUiStore } from '../stores/uiStore';
import { CrewFlow } from './CrewFlow';
import { FlowCanvas } from './flow/FlowCanvas';
import { UnreadableDocument } from './UnreadableDocument';

/**
 * The canvas for the open document (a crew, or a flow) (`uiStore.documentPath`, loaded by the app through
 * `useDocumentStore.getState().load(path)`). Includes its own ReactFlowProvider.
 */
export function CrewCanvas() {
  const path = useUiStore((s) => s.documentPath);
  const loadState = useDocumentStore((s) => s.loadState);
  const loadError = useDocumentStore((s) => s.loadError);
  const loadedPath = useDocumentStore((s) => s.path);
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
  if (unreadable) return <UnreadableDocument key={`${loadedPath}`} unreadable={unreadable} />;
  if (loadState !== 'ready' || !doc) return <div className="crew-canvas-message is-loading">Opening…</div>;
  if (isFlowDocument(doc)) {
    return (
      <ReactFlowProvider key={loadedPath}>
        <FlowCanvas doc={doc} />
      </ReactFlowProvider>
    );
  }
  return (
    <ReactFlowProvider key={loadedPath}>
      <CrewFlow doc={doc} />
    </ReactFlowProvider>
  );
}
