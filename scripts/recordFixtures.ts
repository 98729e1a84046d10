/**
 * Regenerates the recorded event logs in test/fixtures/*.jsonl from real runs of the examples on the
 * scripted demo model (no network): `node --import tsx scripts/recordFixtures.ts [outDir]`.
 * Run it after changing an event's shape; test/events/fixtureSchema.test.ts checks every line.
 * Each fixture is one run's stored events (`crewdeck runs events --json`), in seq order.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolApprovalDecision } from '../shared/events';
import { CrewDocumentSchema, type CrewDocument } from '../shared/model/crew';
import { FlowDocumentSchema } from '../shared/model/flow';
import type { HumanChannel } from '../runtime/human/humanChannel';
import { createRuntime, type Runtime } from '../runtime/runtime';
import { SqliteRunStore } from '../runtime/store/sqliteRunStore';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(process.argv[2] ?? join(repo, 'test/fixtures'));

/** Answers from lists; `onApproval` may cancel the run instead of answering. */
class ListHuman implements HumanChannel {
  constructor(
    private readonly reviews: string[],
    private readonly approvals: ToolApprovalDecision[],
    private readonly onApproval?: () => void,
  ) {}
  async reviewTask(): Promise<string> {
    const next = this.reviews.shift();
    if (next === undefined) throw new Error('no review answer left');
    return next;
  }
  async approveTool(_request: unknown, signal?: AbortSignal): Promise<ToolApprovalDecision> {
    if (this.onApproval) {
      this.onApproval();
      return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
    }
    const next = this.approvals.shift();
    if (next === undefined) throw new Error('no approval answer left');
    return next;
  }
}

const example = (name: string): CrewDocument => CrewDocumentSchema.parse(JSON.parse(readFileSync(join(repo, 'examples', `${name}.crew.json`), 'utf8')));

/** The research brief with its file read needing approval and the brief reviewed by a person. */
function reviewBrief(): CrewDocument {
  const doc = example('research-brief');
  return {
    ...doc,
    id: 'review-brief',
    name: 'Review brief',
    agents: doc.agents.map((a) => (a.id === 'researcher' ? { ...a, tools: a.tools.map((t) => (t.tool === 'read_file' ? { ...t, requiresApproval: true } : t)) } : a)),
    tasks: doc.tasks.map((t) => (t.id === 'brief' ? { ...t, humanInput: true } : t)),
  };
}

/** The research brief whose guardrail cannot pass (the writer always says kWh) with one retry. */
function failingBrief(): CrewDocument {
  const doc = example('research-brief');
  return {
    ...doc,
    id: 'failing-brief',
    name: 'Failing brief',
    tasks: doc.tasks.map((t) => (t.id === 'brief' ? { ...t, guardrails: [{ type: 'not_contains' as const, text: 'kWh' }], guardrailMaxRetries: 1 } : t)),
  };
}

const reviewFlow = FlowDocumentSchema.parse({
  kind: 'flow',
  version: 1,
  id: 'review-flow',
  name: 'Review flow',
  state: { initial: { topic: 'numbers', status: 'draft' } },
  methods: [
    { id: 'draft', name: 'draft', trigger: { start: true }, body: { type: 'llm', prompt: 'Write a one-line draft about {state.topic}.', llm: { provider: 'scripted', model: 'demo', script: { default: 'Draft: six times seven is 42.' } } } },
    {
      id: 'review',
      name: 'review',
      trigger: { listen: 'draft' },
      routes: ['approve', 'revise'],
      body: { type: 'human_feedback', message: 'Is this draft ready to publish?', outcomes: ['approve', 'revise'], defaultOutcome: 'approve' },
    },
    { id: 'publish', name: 'publish', trigger: { listen: { route: 'approve' } }, body: { type: 'set_state', set: { status: 'published' } } },
    { id: 'rewrite', name: 'rewrite', trigger: { listen: { route: 'revise' } }, body: { type: 'set_state', set: { status: 'rewritten' } } },
  ],
});

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-fixtures-'));
  cpSync(join(repo, 'examples'), dir, { recursive: true });
  const store = SqliteRunStore.open(dir);
  const runtime = (human?: HumanChannel): Runtime => createRuntime({ workspace: dir, store, human });
  const save = (name: string, runId: string) => {
    const events = store.events(runId);
    writeFileSync(join(outDir, `${name}.jsonl`), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    process.stdout.write(`${name}.jsonl: ${events.length} events\n`);
  };
  try {
    const inputs = { topic: 'rooftop solar' };
    const first = await runtime().runCrew(example('research-brief'), { inputs, documentPath: join(dir, 'research-brief.crew.json') });
    save('run-sequential-tools-guardrail', first.runId);
    save('run-replay-from-brief', (await runtime().replay(first.runId, 'brief')).runId);

    const launch = await runtime().runCrew(example('product-launch'), { inputs: { product: 'Crewdeck Pro' }, documentPath: join(dir, 'product-launch.crew.json') });
    save('run-hierarchical-delegation', launch.runId);

    const reviewed = await runtime(new ListHuman(['Please add the price per kWh', '', ''], ['approve'])).runCrew(reviewBrief(), { inputs, documentPath: join(dir, 'research-brief.crew.json') });
    save('run-human-review-approval', reviewed.runId);

    const failed = await runtime().runCrew(failingBrief(), { inputs, documentPath: join(dir, 'research-brief.crew.json') });
    save('run-failed-guardrail', failed.runId);

    const controller = new AbortController();
    const cancelled = await runtime(new ListHuman([], [], () => setTimeout(() => controller.abort(new Error('cancelled from the app')), 50))).runCrew(reviewBrief(), {
      inputs,
      documentPath: join(dir, 'research-brief.crew.json'),
      signal: controller.signal,
    });
    save('run-cancelled-waiting-approval', cancelled.runId);

    const paused = await runtime().runFlow(reviewFlow);
    await runtime().resume(paused.runId, { feedback: 'revise' });
    save('run-flow-review-revise', paused.runId);

    // Paused at a 1-token budget in the research task (its second model call), then resumed under a higher cap.
    const capped = await runtime().runCrew(example('research-brief'), { inputs, documentPath: join(dir, 'research-brief.crew.json'), budget: { maxTokens: 1 } });
    await runtime().resume(capped.runId, { budget: { maxTokens: 1_000_000 } });
    save('run-budget-paused-resumed', capped.runId);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
