import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CrewDocumentSchema } from '../../shared/model/crew';
import { isBadInput } from '../../runtime/badInput';
import { parseSkillFile } from '../../runtime/skills/parseSkillFile';
import { SkillUnavailable } from '../../runtime/skills/resolveSkills';
import { crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace('crewdeck-skills-');
  mkdirSync(join(ws.dir, 'skills'));
  writeFileSync(
    join(ws.dir, 'skills', 'pricing.md'),
    '---\nname: solar-pricing\ndescription: "How to price a solar installation"\n---\n# Pricing\n\nMultiply the kWp by 1,450 EUR and add 12% for the inverter.\n',
  );
  writeFileSync(join(ws.dir, 'skills', 'tone.md'), '# Write in a warm, plain tone\n\nShort sentences. Numbers first.\n');
});
afterEach(() => ws.remove());

const systemOf = (events: Parameters<typeof ofType>[0], role: string) =>
  ofType(events, 'llm.started').find((e) => e.purpose === 'agent' && e.agentRole === role)!.messages.find((m) => m.role === 'system')!.content;

function skilledCrew(llm: ReturnType<typeof scripted>, extra: Record<string, unknown> = {}) {
  return crew({
    agents: [
      {
        id: 'seller',
        role: 'Seller',
        goal: 'Quote prices',
        llm,
        skills: ['skills/pricing.md', 'skills/tone.md', { name: 'follow-up', description: 'When to call back', instructions: 'Call back after three days.' }],
      },
    ],
    tasks: [{ id: 'quote', description: 'Quote a 10 kWp installation', expectedOutput: 'A price', agentId: 'seller', ...extra }],
  });
}

describe('skills', () => {
  it('reads front matter, or falls back to the file name and first line', () => {
    expect(parseSkillFile('---\nname: a\ndescription: b\n---\nDo X.', 'skills/x.md')).toEqual({ name: 'a', description: 'b', instructions: 'Do X.', origin: 'skills/x.md' });
    expect(parseSkillFile('## Tone guide\nBe kind.', 'skills/tone.md')).toEqual({ name: 'tone', description: 'Tone guide', instructions: '## Tone guide\nBe kind.', origin: 'skills/tone.md' });
  });

  it('lists the skills by name and description in the system prompt, and load_skill returns the instructions through the gate', async () => {
    const llm = scripted({
      rules: [
        { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'load_skill', arguments: { name: 'solar-pricing' } }] } },
        { when: { lastRole: 'tool' }, reply: '10 kWp costs 14,500 EUR plus 12%.' },
      ],
    });
    const { result, events } = await runCrew(skilledCrew(llm), { workspace: ws });
    expect(result.status).toBe('completed');
    const system = systemOf(events, 'Seller');
    expect(system).toContain('call the load_skill tool with its name');
    expect(system).toContain('- solar-pricing — How to price a solar installation\n- tone — Write in a warm, plain tone\n- follow-up — When to call back');
    expect(system).not.toContain('Multiply the kWp'); // instructions only arrive through the tool
    expect(ofType(events, 'agent.started')[0]!.tools).toContain('load_skill');
    const started = ofType(events, 'tool.started');
    expect(started.map((e) => e.tool)).toEqual(['load_skill']);
    const done = ofType(events, 'tool.completed');
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ tool: 'load_skill' });
    expect(done[0]!.result).toBe('Skill "solar-pricing" instructions:\n# Pricing\n\nMultiply the kWp by 1,450 EUR and add 12% for the inverter.');
  });

  it('answers an unknown skill name with the list of skills', async () => {
    const llm = scripted({
      rules: [
        { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'load_skill', arguments: { name: 'haggling' } }] } },
        { when: { lastRole: 'tool' }, reply: 'No haggling skill; quoting list price.' },
      ],
    });
    const { events } = await runCrew(skilledCrew(llm), { workspace: ws });
    const failed = ofType(events, 'tool.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error).toContain('there is no skill "haggling". Your skills are:\n- solar-pricing — How to price a solar installation\n- tone — Write in a warm, plain tone\n- follow-up — When to call back');
    const second = ofType(events, 'llm.started').filter((e) => e.purpose === 'agent')[1];
    expect(second!.messages.at(-1)!.content).toContain('there is no skill "haggling"');
  });

  it('keeps load_skill when a task overrides the agent tools, and goes through the policy gate hooks', async () => {
    const llm = scripted({
      rules: [
        { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'load_skill', arguments: { name: 'tone' } }] } },
        { when: { lastRole: 'tool' }, reply: 'done' },
      ],
    });
    const seen: string[] = [];
    const { events } = await runCrew(skilledCrew(llm, { tools: [{ tool: 'calculator' }] }), {
      workspace: ws,
      hooks: { before: [(call) => void seen.push(call.tool)] },
    });
    expect(ofType(events, 'agent.started')[0]!.tools.sort()).toEqual(['calculator', 'load_skill']);
    expect(seen).toEqual(['load_skill']);
  });

  it('reports a missing skill file or one outside the workspace before the run opens', async () => {
    const llm = scripted({ default: 'x' });
    const missing = crew({
      agents: [{ id: 'seller', role: 'Seller', goal: 'g', llm, skills: ['skills/nope.md'] }],
      tasks: [{ id: 't', description: 'd', expectedOutput: 'e', agentId: 'seller' }],
    });
    const error = await runCrew(missing, { workspace: ws }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillUnavailable);
    expect(isBadInput(error)).toBe(true);
    expect((error as Error).message).toBe('agents.0.skills.0: skill file "skills/nope.md" of agent "seller" was not found');
    expect(ws.store.listRuns()).toEqual([]);

    const problems = CrewDocumentSchema.safeParse({
      kind: 'crew', version: 1, id: 'c', name: 'C',
      agents: [{ id: 'a', role: 'A', goal: 'g', skills: ['../secret.md', 'skills/notes.txt'] }],
      tasks: [{ id: 't', description: 'd', expectedOutput: 'e', agentId: 'a' }],
    });
    expect(problems.success).toBe(false);
    const messages = problems.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toContain('agents.0.skills.0: "../secret.md" leaves the workspace; use a path inside it');
    expect(messages).toContain('agents.0.skills.1: a skill file must be a .md file');
  });
});
