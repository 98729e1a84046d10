import type { StubReached } from '../../shared/events';
import { describeStubsReached, stubCount } from '../../shared/stubsReached';
import { useRunStore } from '../stores/runStore';
import '../styles/stubs.css';

const NONE: StubReached[] = [];

/**
 * Beside the shown run's status: "N stubs reached" when the flow ran imported CrewAI stubs (methods whose
 * Python could not be imported; they passed their input on). A completed run with it skipped the project's logic there.
 */
export function StubsReachedBadge({ testId }: { testId: string }) {
  const stubs = useRunStore((s) => s.view?.stubsReached ?? NONE);
  if (stubs.length === 0) return null;
  return (
    <span className="run-stubs" data-testid={testId} data-count={stubs.length} title={`${describeStubsReached(stubs)}: their CrewAI Python did not run; each passed its input on unchanged`}>
      <span className="stub-glyph" aria-hidden="true">
        !
      </span>
      {stubCount(stubs.length)} reached
    </span>
  );
}
