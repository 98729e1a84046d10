import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { exportCrewAiFlow } from '../../runtime/crewai/exportFlow';
import { importCrewAiProject } from '../../runtime/crewai/importProject';

const patterns = join(import.meta.dirname, '../fixtures/crewai/flows/book_writer');
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('CrewAI export of a flow', async () => {
  const { crews } = (await importCrewAiProject(patterns));
  const outline = crews.find((c) => c.id === 'outline_crew')!;
  const chapter = crews.find((c) => c.id === 'chapter_crew')!;
  const flow = FlowDocumentSchema.parse({
    kind: 'flow',
    version: 1,
    id: 'book_flow',
    name: 'Book flow',
    state: { initial: { topic: 'lighthouses', outline: [], tries: 0 } },
    methods: [
      { id: 'outline', name: 'outline', trigger: { start: true }, body: { type: 'crew', file: 'outline.crew.json', inputs: { topic: '{state.topic}', goal: 'a short read' } } },
      { id: 'split', name: 'split', trigger: { listen: 'outline' }, body: { type: 'set_state', set: { outline: '{input}' } } },
      { id: 'write', name: 'write_chapters', trigger: { listen: 'split' }, body: { type: 'for_each', items: '{state.outline}', concurrency: 3, into: 'chapters', body: { type: 'crew', file: 'chapter.crew.json', inputs: { title: '{item}', topic: '{state.topic}' } } } },
      { id: 'check', name: 'check', trigger: { listen: 'write_chapters' }, routes: ['done', 'again'], body: { type: 'rules', rules: [{ when: { path: 'state.tries', op: 'gte', value: 2 }, route: 'done' }], default: 'again' } },
      { id: 'save', name: 'save', trigger: { listen: { or: [{ route: 'done' }, { route: 'again' }] } }, body: { type: 'set_state', set: { book: 'Book about {state.topic}: {state.chapters}' } }, outputFile: 'book.md' },
    ],
  });

  it('writes a Flow class with @start/@listen/@router, or_, asyncio.gather for for_each, and the crews it runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewai-flow-export-'));
    temps.push(dir);
    const out = exportCrewAiFlow(flow, new Map([['outline.crew.json', outline], ['chapter.crew.json', chapter]]), join(dir, 'out'));
    expect(out.files).toEqual(expect.arrayContaining(['src/book_flow/main.py', 'src/book_flow/crews/outline_crew/crew.py', 'src/book_flow/crews/chapter_crew/crew.py']));
    expect(out.summary).toEqual([]);
    const main = readFileSync(join(dir, 'out/src/book_flow/main.py'), 'utf8');
    for (const line of [
      'from crewai.flow.flow import Flow, listen, or_, router, start',
      'from book_flow.crews.outline_crew.crew import OutlineCrew',
      'class BookFlowState(BaseModel):',
      '    tries: int = 0',
      '@persist()',
      'class BookFlowFlow(Flow[BookFlowState]):',
      '    @start()\n    def outline(self, input=None):',
      '        result = OutlineCrew().crew().kickoff(inputs={"topic": f"{self.state.topic}", "goal": "a short read"})',
      '    @listen(split)\n    async def write_chapters(self, input=None):',
      '        limit = asyncio.Semaphore(3)',
      '                result = await ChapterCrew().crew().kickoff_async(inputs={"title": f"{item}", "topic": f"{self.state.topic}"})',
      '        results = await asyncio.gather(*[one(index, item) for index, item in enumerate(self.state.outline)])',
      '    @router(write_chapters)\n    def check(self, input=None):',
      '        if self.state.tries >= 2:\n            return "done"\n        return "again"',
      '    @listen(or_("done", "again"))\n    def save(self, input=None):',
      '        with open("book.md", "w") as f:',
    ]) {
      expect(main).toContain(line);
    }
    // The exported crews are the crews: importing the project back gives them unchanged.
    const back = (await importCrewAiProject(join(dir, 'out')));
    expect(back.crews.map((c) => c.id).sort()).toEqual(['chapter_crew', 'outline_crew']);
    expect(back.crews.find((c) => c.id === 'chapter_crew')).toEqual(chapter);
  });
});
