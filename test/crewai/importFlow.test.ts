import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { FlowDocumentSchema, type FlowDocument } from '../../shared/model/flow';
import { exportCrewAiFlow } from '../../runtime/crewai/exportFlow';
import { importCrewAiFlow } from '../../runtime/crewai/importFlow';
import { importCrewAiProject, type UnmappedItem } from '../../runtime/crewai/importProject';
import { createHostService } from '../../runtime/host/createHostService';
import { createRuntime } from '../../runtime/runtime';
import { ofType, tempWorkspace, traceProblems } from '../support/crewHarness';
import { foldRunEvents } from '../../renderer/stores/reduceRunEvent';
import { emptyRunView } from '../../renderer/stores/runView';

const flows = join(import.meta.dirname, '../fixtures/crewai/flows');
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

/** One line per method: name, trigger, routes, body kind (and what it runs), outputFile. */
function outline(flow: FlowDocument): string[] {
  const trig = (m: FlowDocument['methods'][number]) => ('listen' in m.trigger ? `${'start' in m.trigger ? 'start+' : ''}listen ${JSON.stringify(m.trigger.listen)}` : 'start');
  return flow.methods.map((m) => {
    const b = m.body;
    const what = b.type === 'crew' ? ` ${b.file} ${JSON.stringify(b.inputs ?? {})}` : b.type === 'for_each' ? ` ${b.items} → ${b.into} ×${b.concurrency} ${b.body.type === 'crew' ? b.body.file : b.body.type} ${JSON.stringify(b.body.type === 'crew' ? b.body.inputs : {})}` : b.type === 'set_state' ? ` ${JSON.stringify(b.set)}` : b.type === 'rules' ? ` ${JSON.stringify(b.rules.map((r) => [r.when.path, r.when.op, r.when.value, r.route]))} else ${b.default}` : '';
    return `${m.name} [${trig(m)}]${m.routes ? ` routes ${m.routes.join('|')}` : ''}: ${b.type}${what}${m.outputFile ? ` → ${m.outputFile}` : ''}`;
  });
}

describe('CrewAI Flow import: what main.py maps to', () => {
  it('self-evaluation loop: @start("retry"), a crew then state per method, an if-return router as rules, file writes as outputFile', async () => {
    const { flow, crews, unmapped } = (await importCrewAiProject(join(flows, 'self_evaluation_loop')));
    expect(unmapped).toEqual([]);
    expect(crews.map((c) => c.id)).toEqual(['post_crew', 'review_crew']);
    expect(flow!.state).toEqual({
      schema: { type: 'object', properties: { topic: { type: 'string' }, post: { type: 'string' }, feedback: { type: ['string', 'null'] }, valid: { type: 'boolean' }, retry_count: { type: 'integer' } } },
      initial: { topic: "a lighthouse keeper's first winter", post: '', feedback: null, valid: false, retry_count: 0 },
    });
    expect(flow!.persist).toBe(false);
    expect(outline(flow!)).toEqual([
      'generate_post_crew [start+listen {"route":"retry"}]: crew post_crew.crew.json {"topic":"{state.topic}","feedback":"{state.feedback}"}',
      'generate_post [listen "generate_post_crew"]: set_state {"post":"{input}"}',
      'evaluate_post_crew [listen "generate_post"]: crew review_crew.crew.json {"post":"{state.post}"}',
      'evaluate_post [listen "evaluate_post_crew"]: script',
      'decide [listen "evaluate_post"] routes complete|max_retry_exceeded|retry: rules [["state.valid","truthy",null,"complete"],["state.retry_count","gte",3,"max_retry_exceeded"]] else retry',
      'save_result [listen {"route":"complete"}]: script → post.md',
      'max_retry_exit [listen {"route":"max_retry_exceeded"}]: script → post.md',
    ]);
    const evaluate = flow!.methods.find((m) => m.name === 'evaluate_post')!.body;
    expect(evaluate.type === 'script' && evaluate.code.split('\n').filter((l) => l.startsWith('state.'))).toEqual([
      'state.valid = __json().valid;',
      'state.feedback = __json().feedback;',
      'state.retry_count = state.retry_count + 1;',
    ]);
  });

  it('self-evaluation router: the router guards, kicks off the critique crew, sets state and routes — a guard step, then the rest on its continue route', async () => {
    const { flow, crews, unmapped } = (await importCrewAiProject(join(flows, 'self_evaluation_router')));
    expect(unmapped).toEqual([]);
    expect(crews.map((c) => c.id)).toEqual(['critique_crew', 'draft_crew']);
    expect(flow!.methods.some((m) => m.body.type === 'script' && m.body.stub)).toBe(false);
    expect(outline(flow!)).toEqual([
      'draft_tagline_crew [start+listen {"route":"retry"}]: crew draft_crew.crew.json {"product":"{state.product}","notes":"{state.notes}"}',
      'draft_tagline [listen "draft_tagline_crew"]: set_state {"tagline":"{input}"}',
      'critique_tagline_guard [listen "draft_tagline"] routes max_retry_exceeded|critique_tagline_continue: rules [["state.retry_count","gt",3,"max_retry_exceeded"]] else critique_tagline_continue',
      'critique_tagline_crew [listen {"route":"critique_tagline_continue"}]: crew critique_crew.crew.json {"tagline":"{state.tagline}"}',
      'critique_tagline_script [listen "critique_tagline_crew"]: script',
      'critique_tagline [listen "critique_tagline_script"] routes complete|retry: rules [["state.valid","truthy",null,"complete"]] else retry',
      'save_tagline [listen {"route":"complete"}]: script → tagline.md',
      'give_up [listen {"route":"max_retry_exceeded"}]: script → unreviewed_tagline.md',
    ]);
    const critique = flow!.methods.find((m) => m.name === 'critique_tagline_script')!.body;
    expect(critique.type === 'script' && critique.code.split('\n').filter((l) => !l.startsWith('//') && !l.startsWith('const __'))).toEqual([
      'state.valid = __json().valid;',
      'state.notes = __json().feedback;',
      'state.retry_count = state.retry_count + 1;',
      'return input;',
    ]);
  });

  it('a guard whose continue label is taken (a method or label of that name) gets the next free one; a guard after else is refused', async () => {
    const root = temp('crewai-flow-guard-');
    const main = (extra: string) =>
      [
        'from crewai.flow.flow import Flow, listen, router, start',
        '',
        '',
        'class GuardFlow(Flow):',
        '    @start()',
        '    def begin(self):',
        '        self.state["n"] = 1',
        '',
        '    @router(begin)',
        '    def check(self):',
        ...extra.split('\n').map((l) => `        ${l}`),
        '',
        '    @listen("done")',
        '    def check_continue(self):',
        '        return "x"',
        '',
      ].join('\n');
    writeFileSync(join(root, 'main.py'), main('if self.state["n"] > 5:\n    return "done"\nself.state["n"] += 1\nreturn "done"'));
    const unmapped: UnmappedItem[] = [];
    const { doc } = importCrewAiFlow(root, join(root, 'main.py'), 'guard', () => undefined, unmapped)!;
    expect(unmapped).toEqual([]);
    expect(outline(doc).slice(1, 4)).toEqual([
      'check_guard [listen "begin"] routes done|check_continue2: rules [["state.n","gt",5,"done"]] else check_continue2',
      'check_script [listen {"route":"check_continue2"}]: script',
      'check [listen "check_script"] routes done: rules [] else done',
    ]);
    writeFileSync(join(root, 'main.py'), main('if self.state["n"] > 5:\n    return "done"\nelse:\n    return "done"\nself.state["n"] += 1\nreturn "done"'));
    const refused: UnmappedItem[] = [];
    importCrewAiFlow(root, join(root, 'main.py'), 'guard', () => undefined, refused);
    expect(refused).toEqual([{ path: 'main.py:11', item: 'check: if self.state["n"] > 5:', why: 'statements after a routing if-chain with an else; the method is a pass-through script stub that warns when it runs (rewrite it as Crewdeck steps)' }]);
  });

  it('book writer: @persist, the nested async helper gathered over state.outline → for_each with {item}', async () => {
    const { flow, unmapped } = (await importCrewAiProject(join(flows, 'book_writer')));
    expect(unmapped).toEqual([]);
    expect(flow!.persist).toBe(true);
    expect(outline(flow!)).toEqual([
      'generate_outline_crew [start]: crew outline_crew.crew.json {"topic":"{state.topic}","goal":"{state.goal}"}',
      'generate_outline [listen "generate_outline_crew"]: script',
      'write_chapters [listen "generate_outline"]: for_each {state.outline} → chapters ×4 chapter_crew.crew.json {"title":"{item}","topic":"{state.topic}"}',
      'join_and_save_script [listen "write_chapters"]: script',
      'join_and_save [listen "join_and_save_script"]: script → book.md',
    ]);
    expect(flow!.methods.find((m) => m.name === 'write_chapters')!.description).toBe('Writes every chapter at once, one crew per outline entry.');
  });

  it('lead scorer: gather over kickoff_async per lead, @human_feedback(emit=…) as the human menu, or_ of a route and a method', async () => {
    const { flow, unmapped } = (await importCrewAiProject(join(flows, 'lead_score_flow')));
    expect(unmapped).toEqual([]);
    expect(flow!.state.initial.leads).toHaveLength(3);
    expect(outline(flow!)).toEqual([
      'score_leads [start+listen {"route":"rescore"}]: for_each {state.leads} → scores ×4 lead_score_crew.crew.json {"lead":"{item}"}',
      'count_round [listen "score_leads"]: script',
      'review_scores_script [listen "count_round"]: script',
      'review_scores [listen "review_scores_script"] routes send_emails|rescore|quit: human_feedback',
      'write_emails_crew [listen {"route":"send_emails"}]: crew email_crew.crew.json {"scores":"{state.scores}"}',
      'write_emails [listen "write_emails_crew"]: set_state {"emails":"{input}"}',
      'save_report [listen {"or":[{"route":"quit"},"write_emails"]}]: script → lead_report.md',
    ]);
    expect(flow!.methods.find((m) => m.name === 'review_scores')!.body).toEqual({
      type: 'human_feedback',
      message: 'Scores are in. Reply send_emails to write to the leads, rescore to score them again, or quit.',
      outcomes: ['send_emails', 'rescore', 'quit'],
      defaultOutcome: 'quit',
      learn: false,
    });
  });

  it.each(['self_evaluation_loop', 'self_evaluation_router', 'book_writer', 'lead_score_flow', 'serial_book'])('%s round-trips: export with exportFlow, import again, the same flow and crews', async (name) => {
    const first = (await importCrewAiProject(join(flows, name)));
    const out = join(temp('crewai-flow-rt-'), 'out');
    const exported = exportCrewAiFlow(first.flow!, new Map(first.crews.map((c) => [`${c.id}.crew.json`, c])), out);
    expect(exported.summary).toEqual([]);
    const back = (await importCrewAiProject(out));
    expect(back.flow).toEqual(first.flow);
    const byId = (list: typeof first.crews) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byId(back.crews)).toEqual(byId(first.crews));
    expect(back.unmapped).toEqual([]);
  });
});

/** A Flow whose steps are all scripts: state set with typed values, a compound router, one method the importer cannot read. */
const COUNTER_MAIN = `from crewai.flow.flow import Flow, listen, router, start
from pydantic import BaseModel


class CounterState(BaseModel):
    count: int = 0
    label: str = ""


class CounterFlow(Flow[CounterState]):
    @start()
    def begin(self):
        self.state.count = 2
        self.state.label = "two"

    @router(begin)
    def check(self):
        if self.state.count > 1 and not self.state.label == "":
            return "many"
        return "few"

    @listen("many")
    def tidy(self):
        for i in range(self.state.count):
            print(i)

    @listen(tidy)
    def finish(self):
        return f"{self.state.label}!"
`;

describe('CrewAI Flow import: a field of a crew result in set_state', () => {
  it('`self.state.note = result["feedback"]` is set_state {input.feedback}, and it survives export → import (json.loads(input)[…])', async () => {
    const root = temp('crewai-flow-field-');
    writeFileSync(
      join(root, 'main.py'),
      [
        'from crewai.flow.flow import Flow, listen, start',
        'from pydantic import BaseModel',
        '',
        '',
        'class NoteState(BaseModel):',
        '    note: str = ""',
        '',
        '',
        'class NoteFlow(Flow[NoteState]):',
        '    @start()',
        '    def review(self):',
        '        result = ReviewCrew().crew().kickoff(inputs={"post": "hello"})',
        '        self.state.note = result["feedback"]',
        '',
      ].join('\n'),
    );
    const unmapped: UnmappedItem[] = [];
    const { doc } = importCrewAiFlow(root, join(root, 'main.py'), 'note', () => 'review_crew.crew.json', unmapped)!;
    expect(unmapped).toEqual([]);
    expect(outline(doc)).toEqual(['review_crew [start]: crew review_crew.crew.json {"post":"hello"}', 'review [listen "review_crew"]: set_state {"note":"{input.feedback}"}']);
    const out = join(temp('crewai-flow-field-out-'), 'out');
    exportCrewAiFlow(doc, new Map(), out);
    const main = readFileSync(join(out, 'src/note/main.py'), 'utf8');
    expect(main).toContain(`self.state.note = f"{json.loads(input)['feedback']}"`);
    expect(main).toContain('import json');
    const again: UnmappedItem[] = [];
    const back = importCrewAiFlow(out, join(out, 'src/note/main.py'), 'note', () => 'review_crew.crew.json', again)!;
    expect(back.doc.methods.find((m) => m.name === 'review')).toEqual(doc.methods.find((m) => m.name === 'review'));
  });
});

describe('CrewAI Flow import: transpiled scripts and pass-through stubs', () => {
  it('a compound test becomes a QuickJS router script; an unreadable method a stub that passes its input on and warns (flow.stub.reached)', async () => {
    const root = temp('crewai-flow-stub-');
    writeFileSync(join(root, 'main.py'), COUNTER_MAIN);
    const unmapped: UnmappedItem[] = [];
    const { doc } = importCrewAiFlow(root, join(root, 'main.py'), 'counter', () => undefined, unmapped)!;
    expect(unmapped).toEqual([
      {
        path: 'main.py:24',
        item: 'tidy: for i in range(self.state.count):',
        why: 'a for loop over range(self.state.count), which is not a state list; the method is a pass-through script stub that warns when it runs (rewrite it as Crewdeck steps)',
      },
    ]);
    expect(outline(doc)).toEqual(['begin [start]: script', 'check [listen "begin"] routes many|few: script', 'tidy [listen {"route":"many"}]: script', 'finish [listen "tidy"]: script']);
    const tidy = doc.methods.find((m) => m.name === 'tidy')!.body;
    expect(tidy.type === 'script' && tidy.stub).toEqual({ python: '    def tidy(self):\n        for i in range(self.state.count):\n            print(i)', file: 'main.py', line: 23 });

    const ws = tempWorkspace('crewdeck-flow-stub-run-');
    try {
      const events: RuntimeEvent[] = [];
      const result = await createRuntime({ workspace: ws.dir, store: ws.store }).runFlow(FlowDocumentSchema.parse(doc), { onEvent: (e) => events.push(e) });
      expect(traceProblems(events)).toEqual([]);
      expect(result).toMatchObject({ status: 'completed', output: 'two!', state: { count: 2, label: 'two' } });
      expect(ofType(events, 'flow.route').map((e) => e.route)).toEqual(['many']);
      const [stubbed] = ofType(events, 'flow.stub.reached');
      expect(stubbed).toMatchObject({ methodName: 'tidy', file: 'main.py', line: 23, python: expect.stringContaining('for i in range(self.state.count):') });
      expect(ofType(events, 'flow.method.completed').find((e) => e.methodName === 'tidy')!.output).toBe(ofType(events, 'flow.method.completed').find((e) => e.methodName === 'check')!.output);
      // The trace row of the stubbed method says what happened.
      const view = foldRunEvents(emptyRunView(result.runId), events);
      const row = [...view.spans.values()].find((s) => s.kind === 'method' && s.label.includes('tidy'));
      expect(row?.sublabel).toBe('stub for CrewAI Python (main.py:23): passed its input on');
    } finally {
      ws.remove();
    }
  });
});

describe("the app's import of a Flow project (documents.importCrewai)", () => {
  it('saves the flow and its crews and names the flow as the document to open', async () => {
    const workspace = temp('crewdeck-host-flow-');
    cpSync(join(flows, 'book_writer'), join(workspace, 'book'), { recursive: true });
    // A crew file of that name already exists: the crew is saved as -2 and the flow names that file.
    writeFileSync(join(workspace, 'chapter_crew.crew.json'), readFileSync(join(import.meta.dirname, '../../examples/research-brief.crew.json')));
    const host = createHostService({ workspace, transport: 'websocket', env: {} });
    try {
      const result = await host.handle('documents.importCrewai', { dir: 'book' });
      if (!result.ok) throw new Error(result.error.message);
      const { path, documents } = result.response as { path: string; documents: { path: string; kind: string }[] };
      expect(path).toBe('book_writer.flow.json');
      expect(documents).toEqual([
        { path: 'book_writer.flow.json', kind: 'flow' },
        { path: 'chapter_crew-2.crew.json', kind: 'crew' },
        { path: 'outline_crew.crew.json', kind: 'crew' },
      ]);
      const flow = FlowDocumentSchema.parse(JSON.parse(readFileSync(join(workspace, path), 'utf8')));
      const write = flow.methods.find((m) => m.name === 'write_chapters')!.body;
      expect(write.type === 'for_each' && write.body.type === 'crew' && write.body.file).toBe('chapter_crew-2.crew.json');
    } finally {
      await host.close();
    }
  });
});
