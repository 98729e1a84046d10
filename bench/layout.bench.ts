/**
 * `npm run bench:layout`: the crew auto-layout engines side by side (issue 18, D14).
 *
 * Crews: the 300-node crew of the e2e and bench:ui (100 agents, 200 tasks, task i → agent i mod 100)
 * and a 40-node crew whose agents are declared in a shuffled order (10 agents, 30 tasks, seeded).
 * Engines:
 * - dagre, ordered: dagre's layered layout with our order set outright (customOrder) — the default;
 * - ELK layered, ordered: the same order, forced (considerModelOrder + forceNodeModelOrder, layer constraints);
 * - ELK layered, model order preferred: ELK's own crossing minimisation, model order as a tie-breaker
 *   (crossingCounterNodeInfluence 0.001), for comparison: it may move tasks;
 * - swimlanes: the large-crew layout (one lane per agent), for reference.
 * Each reports time (median / p95 of --runs runs, after one warm-up), assignment-edge crossings,
 * whether tasks read in execution order, agent-order inversions, and the bounding box.
 *
 * Options (after `npm run bench:layout --`): --runs N (default 5; ELK, which takes seconds per layout
 * on the 300-node crew, gets --elk-runs, default 3), --no-write (leave docs/LAYOUT.md).
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CrewDraft, Position } from '../renderer/commands/crewDraft';
import { crewLayoutGraph, type CrewLayoutGraph } from '../renderer/commands/layout/crewLayoutGraph';
import { dagreLayout } from '../renderer/commands/layout/dagreLayout';
import { elkGraph, elkLayout, type ElkEngine } from '../renderer/commands/layout/elkLayout';
import { layoutQuality, type LayoutQuality } from '../renderer/commands/layout/layoutQuality';
import { placeExtras } from '../renderer/commands/layout/placeExtras';
import { computeSwimlanes } from '../renderer/commands/swimlaneLayout';
import { writeGeneratedBlock } from './docBlock';
import { median, percentile } from './stats';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, 'elk-runs': { type: 'string', default: '3' }, 'no-write': { type: 'boolean', default: false } },
});
const runs = Math.max(1, Number(args.runs));
const elkRuns = Math.max(1, Number(args['elk-runs']));
const LAYOUT_DOC = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'LAYOUT.md');

function crew(agentIds: string[], assignments: string[]): CrewDraft {
  return {
    kind: 'crew',
    version: 1,
    id: 'bench',
    name: 'Bench',
    process: 'sequential',
    agents: agentIds.map((id) => ({ id, role: id, goal: 'g' })),
    tasks: assignments.map((agentId, i) => ({ id: `task-${i + 1}`, description: 'd', expectedOutput: 'o', agentId })),
  };
}

function bigCrew(): CrewDraft {
  const agents = Array.from({ length: 100 }, (_, i) => `agent-${i + 1}`);
  return crew(agents, Array.from({ length: 200 }, (_, i) => agents[i % 100]!));
}

/** Agents work in blocks (agent k does tasks 3k..3k+2) but are declared in a shuffled order. */
function shuffledCrew(): CrewDraft {
  const agents = Array.from({ length: 10 }, (_, i) => `agent-${i + 1}`);
  let seed = 18;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const declared = [...agents];
  for (let i = declared.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [declared[i], declared[j]] = [declared[j]!, declared[i]!];
  }
  return crew(declared, Array.from({ length: 30 }, (_, i) => agents[Math.floor(i / 3)]!));
}

const elk: ElkEngine = new ELK();

/** ELK choosing the order itself: model order only preferred. */
async function elkPreferringModelOrder(graph: CrewLayoutGraph): Promise<Record<string, Position>> {
  const input = elkGraph(graph);
  const options = { ...input.layoutOptions };
  delete options['elk.layered.crossingMinimization.forceNodeModelOrder'];
  delete options['elk.layered.crossingMinimization.strategy'];
  delete options['elk.layered.crossingMinimization.greedySwitch.type'];
  options['elk.layered.considerModelOrder.crossingCounterNodeInfluence'] = '0.001';
  // Declared order as the model order (elkGraph lists agents in the chosen order).
  const declared = new Map(graph.agents.map((a, i) => [a.id, i]));
  const children = [...(input.children ?? [])].sort((a, b) => (declared.get(a.id) ?? -1) - (declared.get(b.id) ?? -1));
  const result = await elk.layout({ ...input, layoutOptions: options, children });
  const out: Record<string, Position> = {};
  for (const c of result.children ?? []) out[c.id] = { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) };
  return placeExtras(graph, out);
}

type Engine = { name: string; elk?: boolean; smallOnly?: boolean; run: (doc: CrewDraft, graph: CrewLayoutGraph) => Promise<Record<string, Position>> | Record<string, Position> };
const engines: Engine[] = [
  { name: 'dagre, ordered (default)', run: (_doc, g) => dagreLayout(g) },
  { name: 'ELK layered, ordered', elk: true, run: (_doc, g) => elkLayout(g, elk) },
  // On the 300-node crew ELK's own crossing sweeps ran for more than 15 minutes (docs/LAYOUT.md): small crew only.
  { name: 'ELK layered, model order preferred', elk: true, smallOnly: true, run: (_doc, g) => elkPreferringModelOrder(g) },
  { name: 'swimlanes (large crews)', run: (doc) => computeSwimlanes(doc) },
];

type Row = { crew: string; engine: string; runs: number; medianMs: number; p95Ms: number; quality: LayoutQuality };
const rows: Row[] = [];
const load = [loadavg()[0], 0];
for (const [label, doc] of [['300 nodes (100 agents, 200 tasks)', bigCrew()], ['40 nodes, agents declared shuffled', shuffledCrew()]] as const) {
  const graph = crewLayoutGraph(doc);
  for (const engine of engines) {
    if (engine.smallOnly && graph.tasks.length + graph.agents.length > 100) continue;
    let positions = await engine.run(doc, graph);
    const times: number[] = [];
    for (let i = 0; i < (engine.elk ? elkRuns : runs); i++) {
      const t0 = performance.now();
      positions = await engine.run(doc, graph);
      times.push(performance.now() - t0);
    }
    const row = { crew: label, engine: engine.name, runs: engine.elk ? elkRuns : runs, medianMs: median(times), p95Ms: percentile(times, 95), quality: layoutQuality(graph, positions) };
    rows.push(row);
    console.log(`${label} · ${engine.name}: ${row.medianMs.toFixed(1)} ms median, ${row.p95Ms.toFixed(1)} ms p95`, row.quality);
  }
}
load[1] = loadavg()[0];

const lanes = (r: Row) => r.engine.startsWith('swimlanes');
const table = [
  `- **Date:** ${new Date().toISOString()}`,
  `- **Machine:** ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}; 1-minute load ${load[0]!.toFixed(1)} before, ${load[1]!.toFixed(1)} after (above ~2 on this machine the times are inflated by other work)`,
  `- **Command:** \`npm run bench:layout -- --runs ${runs} --elk-runs ${elkRuns}\` (one warm-up, then ${runs} timed layouts per engine, ${elkRuns} for ELK; in Node, ELK's bundled build on the same thread — the app runs it in a web worker)`,
  '',
  '| crew | engine | time, median / p95 (runs) | edge crossings | tasks in execution order | agent-order inversions | bounding box |',
  '|---|---|--:|--:|---|--:|--:|',
  ...rows.map(
    (r) =>
      `| ${r.crew} | ${r.engine} | ${r.medianMs.toFixed(1)} / ${r.p95Ms.toFixed(1)} ms (${r.runs}) | ${r.quality.crossings} | ` +
      `${lanes(r) ? 'per lane' : r.quality.tasksInOrder ? 'yes' : '**no**'} | ${r.quality.agentInversions} | ${r.quality.width} × ${r.quality.height} px |`,
  ),
].join('\n');
console.log(`\n${table}`);
if (!args['no-write']) console.log(`\nwrote ${writeGeneratedBlock('layout', '## Auto-layout engines (npm run bench:layout)', table, LAYOUT_DOC)}`);
