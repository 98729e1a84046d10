import { CategoryScale, Chart, Legend, LinearScale, LineElement, PointElement, Tooltip, type ChartData, type ChartOptions } from 'chart.js';
import { useEffect, useState } from 'react';
import { Line } from 'react-chartjs-2';
import { useUiStore } from '../../stores/uiStore';
import { formatScore, type TaskSeries } from './testChartData';

Chart.register(CategoryScale, LinearScale, PointElement, LineElement, Tooltip, Legend);

/** A theme colour as the canvas needs it (canvas cannot read CSS variables). */
function themeColour(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

let drawable: boolean | undefined;
/** Whether canvases can be drawn here (not in a DOM without a 2D context, such as jsdom). */
function canvasAvailable(): boolean {
  if (drawable === undefined) {
    try {
      drawable = typeof document !== 'undefined' && document.createElement('canvas').getContext('2d') !== null;
    } catch {
      drawable = false;
    }
  }
  return drawable;
}

function readColours() {
  return {
    accent: themeColour('--accent', '#6ea8fe'),
    ok: themeColour('--ok', '#4cc38a'),
    muted: themeColour('--muted', '#8b93a5'),
    grid: themeColour('--border', '#2b303b'),
    text: themeColour('--text', '#e4e7ee'),
  };
}

/** The chart's colours, read again once a theme change has reached the document (App sets it in an effect). */
function useThemeColours() {
  const theme = useUiStore((s) => s.theme);
  const [colours, setColours] = useState(readColours);
  useEffect(() => {
    const timer = setTimeout(() => setColours(readColours()), 0);
    return () => clearTimeout(timer);
  }, [theme]);
  return { ...colours, theme };
}

/**
 * One task's scores across the iterations: the evaluator's score and the deterministic checks' score
 * (both 0–10) as two lines. The canvas is described for screen readers by its label.
 */
export function ScoreChart({ series }: { series: TaskSeries }) {
  const { accent, ok, muted, grid, text, theme } = useThemeColours();

  const data: ChartData<'line', (number | null)[], string> = {
    labels: series.labels,
    datasets: [
      { label: 'Evaluator score', data: series.evaluator, borderColor: accent, backgroundColor: accent, pointRadius: 4, borderWidth: 2, spanGaps: false },
      ...(series.hasChecks
        ? [{ label: 'Check score', data: series.checks, borderColor: ok, backgroundColor: ok, pointRadius: 4, pointStyle: 'rectRot' as const, borderDash: [5, 4], borderWidth: 2, spanGaps: false }]
        : []),
    ],
  };
  const options: ChartOptions<'line'> = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    scales: {
      y: { min: 0, max: 10, ticks: { stepSize: 2, color: muted }, grid: { color: grid }, title: { display: true, text: 'score', color: muted } },
      x: { ticks: { color: muted }, grid: { color: grid }, title: { display: true, text: 'iteration', color: muted } },
    },
    plugins: {
      legend: { position: 'bottom', labels: { color: text, boxWidth: 12, boxHeight: 12 } },
      tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${formatScore(item.parsed.y)}` } },
    },
  };
  const description = `${series.taskId} (${series.role}): evaluator scores ${series.evaluator.map(formatScore).join(', ')}${
    series.hasChecks ? `; check scores ${series.checks.map(formatScore).join(', ')}` : '; no checks'
  }`;
  return (
    <figure className="test-chart" data-testid="test-chart" data-task-id={series.taskId}>
      <figcaption className="test-chart-title">
        <code>{series.taskId}</code> <span className="training-muted">{series.role}</span>
      </figcaption>
      <div className="test-chart-canvas">
        {canvasAvailable() ? (
          <Line key={`${theme}-${accent}`} data={data} options={options} role="img" aria-label={description} />
        ) : (
          <div className="test-chart-fallback" role="img" aria-label={description}>
            {description}
          </div>
        )}
      </div>
    </figure>
  );
}
