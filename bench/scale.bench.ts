/**
 * `npm run bench:scale` (issue 29): how cost grows with the work. Every figure is a ratio against a floor
 * measured in the same run, interleaved with it, with the machine's load beside it:
 *
 * 1. `for_each` over 250 / 500 / 1,000 items, checkpointing on beside off (CPU);
 * 2. the memory store grown to 300,000 records: disk beside its live data, RSS, recall p50 / p95 beside a
 *    row-id-only vector query (bench/scale/memoryScale.ts);
 * 3. trace load of 10k and 50k events through the host API beside select + parse (CPU);
 * 4. event insert beside a raw SQLite insert of the same rows in the same transactions (CPU);
 * 5. a batch of 1,000 rows beside 1,000 calls of the bare openai SDK, same server, same transport (CPU);
 * 6. `runs.list` by document at 1k / 10k / 100k runs beside the unfiltered first page.
 *
 * Options (after `npm run bench:scale --`): --rounds N (3), --memory-records N (300000), --no-memory,
 * --quick (small sizes, to check the bench itself), --no-write (leave docs/PERFORMANCE.md).
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { writeGeneratedBlock } from './docBlock';
import { measureHttp, tripleRatio } from './scale/batchRows';
import { measureForEach } from './scale/flowCheckpoints';
import { fmt, median, percentile, verdict } from './scale/measure';
import { measureMemory, type MemoryFigures } from './scale/memoryScale';
import { measureEventInsert, measureRunsList, measureTraceLoad } from './scale/storeScale';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    'memory-records': { type: 'string', default: '300000' },
    'no-memory': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    /** Comma-separated parts to run: memory, foreach, trace, insert, batch, list (default: all). */
    only: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const rounds = Number(args.rounds);
const parts = new Set((args.only ?? 'memory,foreach,trace,insert,batch,list').split(','));
const part = <T>(name: string, run: () => Promise<T>): Promise<T | undefined> => (parts.has(name) ? run() : Promise.resolve(undefined));
const quick = args.quick ?? false;
const load: number[] = [loadavg()[0]!];
const started = new Date();

// Memory first: its RSS is the process's, before the other parts load anything.
let memory: MemoryFigures | undefined;
if (!args['no-memory']) memory = await part('memory', () => measureMemory(quick ? 20_000 : Number(args['memory-records']), quick ? 50 : 300));
load.push(loadavg()[0]!);
const forEach = (await part('foreach', () => measureForEach(quick ? [50, 100] : [250, 500, 1000], rounds))) ?? [];
load.push(loadavg()[0]!);
const trace = (await part('trace', () => measureTraceLoad(quick ? [2000] : [10_000, 50_000], rounds))) ?? [];
load.push(loadavg()[0]!);
const insert = await part('insert', () => measureEventInsert(quick ? 2000 : 20_000, 9, rounds));
load.push(loadavg()[0]!);
const batch = await part('batch', () => measureHttp(quick ? 50 : 1000, quick ? 20 : 200, rounds));
load.push(loadavg()[0]!);
const list = (await part('list', () => measureRunsList(quick ? [1000] : [1000, 10_000, 100_000], quick ? 20 : 50))) ?? [];
load.push(loadavg()[0]!);

const L = (i: number) => fmt(load[i]!, 2);
const lines: string[] = [
  `- **Date:** ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC; ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${fmt(totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}`,
  `- **Command:** \`npm run bench:scale${quick ? ' -- --quick' : ''}\` — ${rounds} measured rounds per figure after one warm-up, each measured run interleaved with its floor (alternating which goes first); CPU is this process's user + system time (\`process.cpuUsage\`; the model server runs in a process of its own)`,
  `- **Load** (1-minute average, at the start of each part): ${load.map((l) => fmt(l, 2)).join(' → ')}. The machine is shared (2 cores): the ratios, measured side by side, are the figures to read.`,
  '',
  '| what | measured | floor (same run) | ratio | target | load |',
  '|---|--:|--:|--:|---|--:|',
];
if (memory) {
  const m = memory;
  lines.push(
    `| memory store on disk after ${m.records.toLocaleString('en-US')} records (ingest ${fmt(m.ingestSeconds, 0)} s; ${m.versionsAfterIngest} table versions kept) | ${fmt(m.diskMiB, 0)} MiB | live data (superseded versions removed): ${fmt(m.liveMiB, 0)} MiB | ${fmt(m.diskMiB / m.liveMiB, 2)}× | ${verdict(m.diskMiB / m.liveMiB, 2)} | ${L(0)} |`,
    `| process RSS at ${m.records.toLocaleString('en-US')} records, recall cache loaded (heap ${fmt(m.heapMiB, 0)} MiB) | ${fmt(m.rssMiB, 0)} MiB | — | — | ≤ 600 MiB: ${m.rssMiB <= 600 ? '**met**' : '**missed**'} | ${L(0)} |`,
    `| recall p95 at ${m.records.toLocaleString('en-US')} | ${fmt(m.recall.p95, 2)} ms | row-id-only vector query p95: ${fmt(m.floor.p95, 2)} ms | ${fmt(m.recall.p95 / m.floor.p95, 2)}× | ≤ 25 ms: ${m.recall.p95 <= 25 ? '**met**' : '**missed**'} | ${L(0)} |`,
    `| recall p50 at ${m.records.toLocaleString('en-US')} | ${fmt(m.recall.p50, 2)} ms | row-id-only vector query p50: ${fmt(m.floor.p50, 2)} ms | ${fmt(m.recall.p50 / m.floor.p50, 2)}× | ${verdict(m.recall.p50 / m.floor.p50, 2)} | ${L(0)} |`,
  );
}
for (const f of forEach) {
  lines.push(
    `| \`for_each\` ${f.items.toLocaleString('en-US')} items (2 KB answers), checkpointing on (${fmt(f.bytesOn / 2 ** 20, 2)} MiB of checkpoint written) — CPU | ${fmt(median(f.pair.measured), 0)} ms | checkpointing off: ${fmt(median(f.pair.floor), 0)} ms | ${fmt(f.ratio, 2)}× | ${verdict(f.ratio, 1.2)} | ${L(1)} |`,
  );
}
for (const t of trace) {
  lines.push(
    `| trace load, ${t.events.toLocaleString('en-US')} events through the host API (\`runs.get\` + ${t.pages} pages of \`runs.events\`, run document: an 8,400-task crew) — CPU | ${fmt(median(t.pair.measured), 0)} ms | the same pages selected + parsed from SQLite: ${fmt(median(t.pair.floor), 0)} ms | ${fmt(t.ratio, 2)}× | ${verdict(t.ratio, 1.5)} | ${L(2)} |`,
  );
}
if (insert) {
  lines.push(
  `| storing ${insert.events.toLocaleString('en-US')} events (\`appendEvent\`, ${insert.perTurn} per event-loop turn) — CPU per event | ${fmt((median(insert.pair.measured) * 1000) / insert.events, 1)} µs | raw prepared insert of the same rows, one transaction per turn: ${fmt((median(insert.pair.floor) * 1000) / insert.events, 1)} µs | ${fmt(insert.ratio, 2)}× | ${verdict(insert.ratio, 1.5)} | ${L(3)} |`,
  );
}
if (batch) {
  const b = batch.batch;
  const t = batch.perTask;
  lines.push(
    `| batch of ${b.rows.toLocaleString('en-US')} rows (1-task crew per row, stored batch, streamed HTTP) — CPU per row | ${fmt(median(b.crewdeck), 2)} ms | one streamed call of the bare openai SDK on Crewdeck's transport (\`nodeHttpFetch\`): ${fmt(median(b.sdkSameTransport), 2)} ms | ${fmt(tripleRatio(b, 'sdkSameTransport'), 2)}× | ${verdict(tripleRatio(b, 'sdkSameTransport'), 1.5)} | ${L(4)} |`,
    `| the same batch beside the SDK on its default transport (Node's fetch) | ${fmt(median(b.crewdeck), 2)} ms | ${fmt(median(b.sdkDefaultTransport), 2)} ms | ${fmt(tripleRatio(b, 'sdkDefaultTransport'), 2)}× | (another transport: not the judged comparison) | ${L(4)} |`,
    `| per task over HTTP: W1, a ${t.tasks}-task sequential crew (previous task as context) — CPU per task | ${fmt(median(t.crewdeck), 2)} ms | the bare SDK making the same streamed calls on Crewdeck's transport: ${fmt(median(t.sdkSameTransport), 2)} ms | ${fmt(tripleRatio(t, 'sdkSameTransport'), 2)}× | ${verdict(tripleRatio(t, 'sdkSameTransport'), 1.1)} | ${L(4)} |`,
    `| the same beside the SDK on its default transport (Node's fetch) | ${fmt(median(t.crewdeck), 2)} ms | ${fmt(median(t.sdkDefaultTransport), 2)} ms | ${fmt(tripleRatio(t, 'sdkDefaultTransport'), 2)}× | (another transport: not the judged comparison) | ${L(4)} |`,
  );
}
for (const l of list) {
  lines.push(`| \`runs.list\` by document (50 newest of 1 in 10), ${l.runs.toLocaleString('en-US')} runs — wall | ${fmt(l.byDocumentMs, 3)} ms | unfiltered first page of 50: ${fmt(l.unfilteredMs, 3)} ms | ${fmt(l.ratio, 2)}× | flat from 1k to 100k | ${L(5)} |`);
}
lines.push(
  '',
  `Spread (p95 of the measured runs): ${[
    ...forEach.map((f) => `for_each ${f.items} on ${fmt(percentile(f.pair.measured, 95), 0)} / off ${fmt(percentile(f.pair.floor, 95), 0)} ms`),
    ...trace.map((t) => `trace ${t.events} ${fmt(percentile(t.pair.measured, 95), 0)} / floor ${fmt(percentile(t.pair.floor, 95), 0)} ms`),
    ...(batch ? [`batch ${fmt(percentile(batch.batch.crewdeck, 95), 2)} / SDK same transport ${fmt(percentile(batch.batch.sdkSameTransport, 95), 2)} ms per row`] : []),
  ].join('; ')}.`,
);
console.log(lines.join('\n'));
if (!args['no-write'] && !quick && parts.size === 6) console.log(`\nwrote ${writeGeneratedBlock('scale', '## Scale (npm run bench:scale)', lines.join('\n'))}`);
