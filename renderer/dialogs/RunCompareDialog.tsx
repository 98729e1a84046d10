import { useEffect, useState } from 'react';
import type { RunDiff, RunStepDiff, RunStepSide, WordDiffPart } from '../../shared/runDiff';
import { describeCost, formatUsd, type TokenUsage } from '../../shared/usage';
import { host } from '../host/hostContext';
import '../styles/run-compare.css';
import { Modal } from './Modal';

/** Two runs side by side, step by step: outputs with the changed words highlighted, and the deltas. */
export function RunCompareDialog({ runA, runB, onClose }: { runA: string; runB: string; onClose(): void }) {
  const [diff, setDiff] = useState<RunDiff>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let live = true;
    host()
      .invoke('runs.diff', { runA, runB })
      .then((r) => live && setDiff(r.diff))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [runA, runB]);

  return (
    <Modal testId="run-compare" title="Compare runs" subtitle={diff ? `${diff.runA.name} · ${diff.tasks.filter((t) => t.changed).length} of ${diff.tasks.length} steps changed` : undefined} onClose={onClose} width={980}>
      {!diff && !error && <div className="dialog-hint">Comparing…</div>}
      {error && <div className="dialog-error">{error}</div>}
      {diff && (
        <div className="compare-body">
          <div className="compare-row compare-head">
            <span />
            <div>
              A <code className="dialog-code">{diff.runA.id}</code> · {diff.runA.status}
            </div>
            <div>
              B <code className="dialog-code">{diff.runB.id}</code> · {diff.runB.status}
            </div>
          </div>
          <div className="compare-row compare-totals" data-testid="compare-totals">
            <span>Total</span>
            <div>{usageText(diff.tokenUsage.a)}</div>
            <div>
              {usageText(diff.tokenUsage.b)} <Delta n={diff.tokenUsage.b.totalTokens - diff.tokenUsage.a.totalTokens} unit=" tok" />
            </div>
          </div>
          {diff.tasks.map((step) => (
            <StepRow key={step.taskId} step={step} />
          ))}
        </div>
      )}
    </Modal>
  );
}

function StepRow({ step }: { step: RunStepDiff }) {
  return (
    <div className="compare-step" data-testid="compare-step" data-task-id={step.taskId} data-changed={step.changed}>
      <div className="compare-step-head">
        <strong>{step.taskId}</strong>
        <span className="compare-badge" data-changed={step.changed}>
          {step.changed ? 'changed' : 'equal'}
        </span>
        <Delta n={step.delta.totalTokens} unit=" tok" />
        {step.delta.durationMs !== undefined && <Delta n={Math.round(step.delta.durationMs)} unit=" ms" />}
        {step.delta.costUsd !== undefined && <span className="compare-delta">{`${step.delta.costUsd >= 0 ? '+' : '-'}${formatUsd(Math.abs(step.delta.costUsd))}`}</span>}
        {step.toolCalls.added.map((c, i) => (
          <span key={`a${i}`} className="compare-tool" data-op="add" title={c}>
            + {c}
          </span>
        ))}
        {step.toolCalls.removed.map((c, i) => (
          <span key={`r${i}`} className="compare-tool" data-op="remove" title={c}>
            − {c}
          </span>
        ))}
      </div>
      <div className="compare-row">
        <span />
        <Side side={step.a} parts={step.words} keep="remove" testId="compare-a" />
        <Side side={step.b} parts={step.words} keep="add" testId="compare-b" />
      </div>
    </div>
  );
}

function Side({ side, parts, keep, testId }: { side: RunStepSide | undefined; parts: WordDiffPart[]; keep: 'add' | 'remove'; testId: string }) {
  if (!side) return <div className="compare-output compare-missing">not in this run</div>;
  return (
    <div className="compare-side" data-testid={testId}>
      <pre className="compare-output">
        {parts
          .filter((p) => p.op === 'equal' || p.op === keep)
          .map((p, i) => (p.op === 'equal' ? <span key={i}>{p.text}</span> : <mark key={i} data-op={p.op}>{p.text}</mark>))}
      </pre>
      <div className="compare-facts">
        {side.status} · {usageText(side.tokenUsage)}
        {side.attempts > 1 ? ` · ${side.attempts} attempts` : ''}
        {side.guardrails.filter((g) => !g.passed).map((g) => ` · guardrail ${g.guardrail} failed: ${g.reason ?? ''}`)}
        {side.error ? ` · ${side.error}` : ''}
      </div>
    </div>
  );
}

function Delta({ n, unit }: { n: number; unit: string }) {
  return <span className="compare-delta" data-sign={Math.sign(n)}>{`${n >= 0 ? '+' : '−'}${Math.abs(n).toLocaleString('en-US')}${unit}`}</span>;
}

function usageText(u: TokenUsage): string {
  const cost = describeCost(u);
  return `${u.totalTokens.toLocaleString('en-US')} tokens${cost ? ` · ${cost}` : ''}`;
}
