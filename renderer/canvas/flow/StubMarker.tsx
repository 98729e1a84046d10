import { useRunStore } from '../../stores/runStore';
import { stubStatement } from '../../../shared/stubsReached';
import '../../styles/stubs.css';

/** On a method the shown run reached as an imported CrewAI stub: its Python (file:line) did not run. */
export function StubMarker({ methodKey }: { methodKey: string }) {
  const stub = useRunStore((s) => s.view?.stubsReached.find((x) => x.methodId === methodKey));
  if (!stub) return null;
  const statement = stubStatement(stub.python);
  return (
    <div className="flow-node-stub" data-testid={`stub-marker-${methodKey}`} title={`A stub for CrewAI Python at ${stub.file}:${stub.line}${statement ? `: ${statement}` : ''}. It did not run; the method passed its input on unchanged.`}>
      <span className="stub-glyph" aria-hidden="true">
        !
      </span>
      <span className="flow-node-stub-label">
        Stub reached<span className="flow-node-stub-more"> · Python not run</span>
      </span>
      <span className="flow-node-stub-where">
        {stub.file}:{stub.line}
      </span>
    </div>
  );
}
