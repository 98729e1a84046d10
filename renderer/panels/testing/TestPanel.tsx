import { useEffect } from 'react';
import type { Conversation } from '../../../shared/model/crew';
import type { TestSession } from '../../../shared/training';
import { updateCrew } from '../../commands/updateCrew';
import { useDocumentStore } from '../../stores/documentStore';
import { useTestStore } from '../../stores/testStore';
import '../../styles/training.css';
import { formatRelativeTime } from '../formatTime';
import { crewOfDocument } from '../training/crewOfDocument';
import { openRunInTrace } from '../training/openRunInTrace';
import { ScoreChart } from './ScoreChart';
import { ScoreTable } from './ScoreTable';
import { taskSeries } from './testChartData';

/**
 * The test panel (SPEC §6) of the crew on the canvas: "Test…", the earlier tests, and the picked
 * test's score table and a chart per task of its scores across the iterations.
 */
export function TestPanel() {
  const doc = useDocumentStore((s) => s.doc);
  const crew = crewOfDocument(doc);
  const tests = useTestStore((s) => s.tests);
  const selectedId = useTestStore((s) => s.selectedId);
  const report = useTestStore((s) => s.report);
  const error = useTestStore((s) => s.error);
  const problemCount = useDocumentStore((s) => s.problems.length);

  useEffect(() => void useTestStore.getState().attach(), []);
  useEffect(() => {
    if (crew?.id) void useTestStore.getState().load(crew.id);
  }, [crew?.id]);

  if (!crew) {
    return (
      <div className="training-panel" data-testid="test-panel">
        <div className="training-empty">Open a crew to test it. Flows are not tested here.</div>
      </div>
    );
  }
  const session = report && report.session.id === selectedId ? report.session : undefined;

  return (
    <div className="training-panel" data-testid="test-panel">
      <header className="training-head">
        <div className="training-title">
          <h1>Tests</h1>
          <span className="training-crew">{crew.name}</span>
        </div>
        <span className="training-spacer" />
        {/* Train… / Test… is the toolbar's, shown in every view of the crew. */}
      </header>
      {error && <div className="banner-error">Could not load the tests: {error}</div>}
      <div className="test-body">
        <nav className="test-list" aria-label="Earlier tests">
          <div className="training-section-label">Tests</div>
          {tests.length === 0 && <div className="training-muted">No tests yet.</div>}
          {tests.map((t) => (
            <TestListItem key={t.id} test={t} selected={t.id === selectedId} />
          ))}
          <KeptConversations doc={doc} />
        </nav>
        <section className="test-report" aria-label="Test report">
          {report && session ? (
            <>
              <header className="test-report-head">
                <h2>
                  {session.iterations} iteration{session.iterations === 1 ? '' : 's'} · {new Date(session.startedAt).toLocaleString()}
                </h2>
                <span className="training-status" data-status={session.status} data-testid="test-status">
                  <span className="training-dot" aria-hidden />
                  {session.status === 'running' ? `running ${session.runIds.length} of ${session.iterations}` : session.status}
                </span>
                <span className="training-muted">evaluator: {session.evalModel ? `“${session.evalModel}”` : 'each agent’s own model'}</span>
                <span className="training-spacer" />
                {session.status === 'running' && (
                  <button className="btn small danger" data-testid="test-cancel" onClick={() => void useTestStore.getState().cancel(session.id)}>
                    Stop
                  </button>
                )}
              </header>
              {session.error && <div className="banner-error">{session.error}</div>}
              <div className="test-runs">
                Runs:
                {session.runIds.map((runId, i) => (
                  <button key={runId} className="training-link" data-testid="test-run" title={`Open run ${runId} in the trace`} onClick={() => openRunInTrace(runId)}>
                    #{i + 1}
                  </button>
                ))}
              </div>
              {report.tasks.length === 0 ? (
                <div className="training-muted">No results yet.</div>
              ) : (
                <>
                  <ScoreTable report={report} />
                  <div className="test-charts">
                    {taskSeries(report).map((s) => (
                      <ScoreChart key={s.taskId} series={s} />
                    ))}
                  </div>
                </>
              )}
            </>
          ) : tests.length > 0 ? (
            <div className="training-muted">Loading…</div>
          ) : (
            <div className="test-intro" data-testid="test-intro">
              <h2>No tests of {crew.name} yet</h2>
              <p>
                A test runs the crew several times with the same inputs. After each run an evaluator model scores every task from 1 to 10 against its expected output, so you see which
                task is weak and whether a change to a prompt, a model or the trained instructions made it better.
              </p>
              <p>The results appear here: a score table over all iterations, and a chart per task of its score in each iteration.</p>
              <button
                className="btn primary"
                data-testid="test-intro-start"
                disabled={problemCount > 0}
                title={problemCount > 0 ? 'Fix the problems first' : undefined}
                onClick={() => useTestStore.getState().setDialogOpen(true)}
              >
                Test this crew…
              </button>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}

/** The conversations kept from the chat pane: each test replays and scores them after the tasks. */
function KeptConversations({ doc }: { doc: unknown }) {
  const crew = (doc ?? {}) as { conversations?: unknown; agents?: unknown };
  const conversations = Array.isArray(crew.conversations) ? (crew.conversations as Partial<Conversation>[]) : [];
  const agents = Array.isArray(crew.agents) ? (crew.agents as { id?: unknown; role?: unknown }[]) : [];
  const roleOf = (id: unknown) => {
    const role = agents.find((a) => a.id === id)?.role;
    return typeof role === 'string' && role ? role : String(id);
  };
  return (
    <section className="test-conversations" aria-label="Kept conversations" data-testid="test-conversations">
      <div className="training-section-label">Kept conversations</div>
      {conversations.length === 0 ? (
        <div className="training-muted">None yet. In the Chat tab, “Keep as test…” adds one; each test scores the agent’s reply against it.</div>
      ) : (
        conversations.map((c, i) => (
          <div key={c.id ?? i} className="test-conversation" data-testid="test-conversation" data-conversation-id={c.id}>
            <span className="test-conversation-name">{c.name ?? c.id}</span>
            <span className="training-muted">
              {roleOf(c.agentId)} · {Array.isArray(c.turns) ? c.turns.length : 0} turns
            </span>
            <button
              type="button"
              className="btn small ghost"
              aria-label={`Remove the kept conversation ${c.name ?? c.id ?? ''}`}
              onClick={() => {
                const rest = conversations.filter((_, j) => j !== i);
                useDocumentStore.getState().perform(updateCrew({ conversations: rest.length > 0 ? rest : undefined }, { label: 'Remove kept conversation' }));
              }}
            >
              Remove
            </button>
          </div>
        ))
      )}
    </section>
  );
}

function TestListItem({ test, selected }: { test: TestSession; selected: boolean }) {
  return (
    <button className="test-list-item" data-testid="test-list-item" data-test-id={test.id} data-status={test.status} aria-pressed={selected} onClick={() => void useTestStore.getState().select(test.id)}>
      <span className="training-status" data-status={test.status}>
        <span className="training-dot" aria-hidden />
        {test.status}
      </span>
      <span>
        {test.iterations} iteration{test.iterations === 1 ? '' : 's'}
        {test.evalModel ? ` · “${test.evalModel}”` : ''}
      </span>
      <span className="training-muted" title={new Date(test.startedAt).toLocaleString()}>
        {formatRelativeTime(test.startedAt)}
      </span>
    </button>
  );
}
