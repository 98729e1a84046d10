import type { RuntimeEvent, StubReached } from '../../shared/events';
import { describeStubsReached } from '../../shared/stubsReached';
import { formatUsd } from '../../shared/usage';
import type { RunStatus, RunSummary } from '../store/types';
import { formatCount, formatDuration, formatTime, oneLine } from './format';
import { LiveTree } from './liveTree';
import type { Style } from './style';

/**
 * How `crewdeck runs list|show|events` print runs as text, the same for the workspace's runs and a team
 * server's (`--server`): a run from the server carries `team.status`, its status in the server's words.
 */

export function statusText(status: RunStatus, style: Style): string {
  const colour = ({ completed: style.green, failed: style.red, cancelled: style.yellow, interrupted: style.yellow, running: style.cyan, paused: style.magenta } satisfies Record<RunStatus, (s: string) => string>)[status];
  return colour(status.padEnd(11));
}

/** The table of `runs list`. */
export function runsTable(runs: (RunSummary & { team?: { status: string } })[], style: Style): string {
  const rows = runs.map((r) => [
    r.id,
    r.team && r.team.status !== r.status ? style.magenta(r.team.status.padEnd(11)) : statusText(r.status, style),
    formatTime(r.startedAt),
    r.durationMs === undefined ? '—' : formatDuration(r.durationMs),
    formatCount(r.tokenUsage.totalTokens),
    r.tokenUsage.costUsd === undefined ? '—' : formatUsd(r.tokenUsage.costUsd),
    oneLine(r.name, 40) + (r.replayOf ? style.dim(` (replay of ${r.replayOf.runId})`) : '') + (r.offlineFrom ? style.dim(` (offline from ${r.offlineFrom})`) : ''),
  ]);
  const header = ['RUN', 'STATUS', 'STARTED (UTC)', 'TIME', 'TOKENS', 'COST', 'CREW'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => stripAnsi(row[i]!).length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat(widths[i]! - stripAnsi(c).length))).join('  ');
  return `${style.bold(line(header))}\n${rows.map(line).join('\n')}\n`;
}

/** `runs show` as text: the run's trace as the live tree draws it, then its inputs, error and output. */
export function writeRunText(
  out: NodeJS.WritableStream,
  run: { id: string; status: RunStatus; name: string; inputs: Record<string, string>; error?: string; output?: string; stubsReached?: StubReached[] },
  events: Iterable<RuntimeEvent>,
  style: Style,
): void {
  const tree = new LiveTree({ out, style, spinner: false });
  for (const event of events) {
    if (event.type !== 'llm.chunk') tree.handle(event);
  }
  out.write(`\n${style.bold('Run')} ${run.id} · ${statusText(run.status, style).trim()} · ${run.name}\n`);
  if (Object.keys(run.inputs).length) out.write(`${style.bold('Inputs')} ${JSON.stringify(run.inputs)}\n`);
  if (run.stubsReached?.length) out.write(`${style.bold('Stubs')} ${style.yellow(describeStubsReached(run.stubsReached))}: their CrewAI Python did not run\n`);
  if (run.error) out.write(`${style.bold('Error')} ${run.error}\n`);
  if (run.output !== undefined) out.write(`\n${style.bold('Output')}\n${run.output}\n`);
}

/** One event of `runs events` (`--json`: the event itself, one a line). */
export function eventLine(event: RuntimeEvent, json: boolean, style: Style): string {
  if (json) return `${JSON.stringify(event)}\n`;
  const { type, seq, ts, spanId, parentSpanId, runId: _runId, ...payload } = event;
  return `${style.dim(String(seq).padStart(5))} ${style.dim(formatTime(ts))} ${style.cyan(type.padEnd(20))} ${style.dim(`${spanId}${parentSpanId ? `<${parentSpanId}` : ''}`.padEnd(10))} ${oneLine(payload, 120)}\n`;
}

function stripAnsi(s: string): string {
  return s.replace(/\x1b\[[0-9;]*m/g, '');
}
