import type { BatchRecord, BatchRowStatus, BatchStatus, BatchSummary } from '../store/types';
import { formatTime } from './format';
import type { Style } from './style';

/** How `crewdeck batches list|show` print batches as text: the workspace's, and a team server's (`--server`). */

export function batchStatusText(status: BatchStatus | BatchRowStatus, style: Style): string {
  const colour = { completed: style.green, failed: style.red, cancelled: style.yellow, interrupted: style.yellow, running: style.cyan, paused: style.magenta, queued: style.dim }[status];
  return colour(status.padEnd(11));
}

export function batchesTable(batches: BatchSummary[], style: Style): string {
  const header = ['BATCH', 'STATUS', 'CREATED (UTC)', 'ROWS', 'CREW'];
  const rows = batches.map((b) => [b.id, batchStatusText(b.status, style), formatTime(b.createdAt), `${b.rows.completed}/${b.rows.total} done`, `${b.name} ${style.dim(b.documentPath)}`]);
  return table(header, rows, style);
}

export function writeBatchText(out: NodeJS.WritableStream, batch: BatchRecord, style: Style): void {
  out.write(`${style.bold(batch.id)} ${batchStatusText(batch.status, style)}\n`);
  out.write(`${style.dim('crew')}        ${batch.name} (${batch.documentPath})\n`);
  out.write(`${style.dim('created')}     ${formatTime(batch.createdAt)}${batch.source ? `  ${style.dim('rows from')} ${batch.source}` : ''}  ${style.dim('concurrency')} ${batch.concurrency}\n\n`);
  const rows = batch.rows.map((r) => [String(r.index + 1), batchStatusText(r.status, style), r.runId, oneLineInputs(r.inputs) + (r.error ? style.red(` — ${r.error}`) : '')]);
  out.write(table(['ROW', 'STATUS', 'RUN', 'INPUTS'], rows, style));
}

function oneLineInputs(inputs: Record<string, string>): string {
  const text = Object.entries(inputs)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')
    .replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function table(header: string[], rows: string[][], style: Style): string {
  const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => strip(row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat((widths[i] ?? 0) - strip(c).length))).join('  ');
  return `${style.bold(line(header))}\n${rows.map(line).join('\n')}\n`;
}
