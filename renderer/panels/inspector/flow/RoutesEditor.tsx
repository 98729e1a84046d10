import { useEffect, useState } from 'react';
import { addRoute, removeRoute, renameRoute } from '../../../commands/flow/editRoutes';
import { useDocumentStore } from '../../../stores/documentStore';
import { FieldProblems } from '../Field';
import { useProblemsAt } from '../problemsContext';

/**
 * A router's route labels: one output handle each on the canvas. Renaming (Enter or leaving the
 * field) updates the listeners of the route and the body's rules; removing drops them.
 */
export function RoutesEditor({ nodeId, path, routes }: { nodeId: string; path: string; routes: string[] }) {
  const own = useProblemsAt(path, true);
  const perform = useDocumentStore.getState().perform;
  const [refused, setRefused] = useState<string>();
  return (
    <div className="insp-list" data-testid="routes-editor">
      <FieldProblems messages={own} />
      {routes.length === 0 && <div className="insp-empty">Not a router. Add a route to make this method choose between branches.</div>}
      {routes.map((route, i) => (
        <RouteRow
          key={`${i}:${route}`}
          index={i}
          route={route}
          path={`${path}.${i}`}
          onRename={(to) => {
            const r = perform(renameRoute(nodeId, route, to));
            setRefused(r.ok ? undefined : r.reason);
            return r.ok;
          }}
          onRemove={() => {
            const r = perform(removeRoute(nodeId, route));
            setRefused(r.ok ? undefined : r.reason);
          }}
        />
      ))}
      {refused && (
        <div className="insp-error" role="alert">
          {refused}
        </div>
      )}
      <button type="button" className="btn insp-add" data-testid="add-route" onClick={() => perform(addRoute(nodeId))}>
        + Add route
      </button>
    </div>
  );
}

function RouteRow({ index, route, path, onRename, onRemove }: { index: number; route: string; path: string; onRename(to: string): boolean; onRemove(): void }) {
  const [text, setText] = useState(route);
  useEffect(() => setText(route), [route]);
  const problems = useProblemsAt(path);
  const commit = () => {
    if (text !== route && !onRename(text)) setText(route);
  };
  return (
    <div>
      <div className="flow-rule">
        <input
          className="insp-input is-mono"
          aria-label={`Route ${index + 1}`}
          value={text}
          spellCheck={false}
          data-testid={`route-name-${index}`}
          onChange={(e) => setText(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
            if (e.key === 'Escape') setText(route);
          }}
        />
        <button type="button" className="insp-icon-btn is-danger" aria-label={`Remove route ${route}`} data-testid={`route-remove-${index}`} onClick={onRemove}>
          ×
        </button>
      </div>
      <FieldProblems messages={problems} />
    </div>
  );
}
