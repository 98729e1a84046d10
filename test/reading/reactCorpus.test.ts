import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseReact, type ReactStep } from '../../runtime/agent/reactParser';
import { resolveToolName } from '../../runtime/reading/toolName';

/**
 * Agreement with CrewAI's own parser on real ReAct replies (../shared/corpus, outside the repository:
 * read when present, never copied). The shapes found there have hand-written cases in reactShapes.test.ts.
 */
const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const corpusFile = join(repoRoot, '..', 'shared', 'corpus', 'react-replies.jsonl');
const present = existsSync(corpusFile);

interface CorpusEntry {
  text: string;
  expected: { kind: 'final' | 'action' | 'error'; answer?: string; tool?: string; tool_input?: string };
  source: string;
}

/** CrewAI's tool input is the raw text after "Action Input:"; its value is the JSON before any hallucinated observation. */
function expectedInput(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    const cut = raw.search(/\n\s*Observation\s*:/);
    return JSON.parse((cut >= 0 ? raw.slice(0, cut) : raw).trim().replace(/```\s*$/, '').trim());
  }
}

const kindOf = (step: ReactStep) => (step.kind === 'invalid' ? 'error' : step.kind);

describe('ReAct replies recorded from real models (corpus)', () => {
  if (!present) console.log(`ReAct corpus: ${corpusFile} is absent; the agreement check is skipped (corpus not present).`);

  it.skipIf(!present)('agrees with CrewAI on kind, answer, tool and tool input for every reply (skipped only when the corpus is not present)', () => {
    const entries = readFileSync(corpusFile, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as CorpusEntry);
    const toolNames = [...new Set(entries.flatMap((e) => (e.expected.tool ? [e.expected.tool] : []))), 'delegate_work', 'ask_question'];
    const resolveName = (name: string) => resolveToolName(name, {}, toolNames, (t) => t, { fuzzy: false })?.tool ?? `(unresolved) ${name}`;
    const tally = { kind: 0, answer: 0, finals: 0, tool: 0, input: 0, actions: 0 };
    const disagreements: string[] = [];
    for (const [i, raw] of entries.entries()) {
      // `expected` is what CrewAI's parser reads. Where it raises, CrewAI 1.x's agent loop
      // (format_answer) takes the whole reply as the final answer, and so does Crewdeck.
      const entry: CorpusEntry = raw.expected.kind === 'error' ? { ...raw, expected: { kind: 'final', answer: raw.text.trim() } } : raw;
      const step = parseReact(entry.text);
      const where = `#${i} ${entry.source}`;
      if (kindOf(step) === entry.expected.kind) tally.kind++;
      else disagreements.push(`${where}: kind ${kindOf(step)}, CrewAI ${entry.expected.kind}`);
      if (entry.expected.kind === 'final') {
        tally.finals++;
        if (step.kind === 'final' && step.answer.trim() === entry.expected.answer!.trim()) tally.answer++;
        else disagreements.push(`${where}: answer ${JSON.stringify(step.kind === 'final' ? step.answer.slice(0, 80) : step.kind)}`);
      }
      if (entry.expected.kind === 'action') {
        tally.actions++;
        const ours = step.kind === 'action' ? resolveName(step.tool) : `(${step.kind})`;
        if (ours === resolveName(entry.expected.tool!)) tally.tool++;
        else disagreements.push(`${where}: tool ${ours}, CrewAI ${entry.expected.tool}`);
        if (step.kind === 'action' && JSON.stringify(step.input) === JSON.stringify(expectedInput(entry.expected.tool_input!))) tally.input++;
        else disagreements.push(`${where}: tool input ${JSON.stringify(step.kind === 'action' ? step.input : step.kind)}`);
      }
    }
    const n = entries.length;
    console.log(
      `ReAct corpus agreement with CrewAI: kind ${tally.kind}/${n}, answer ${tally.answer}/${tally.finals} finals, ` +
        `tool ${tally.tool}/${tally.actions} actions, tool input ${tally.input}/${tally.actions} actions` +
        (disagreements.length ? `\n${disagreements.join('\n')}` : ''),
    );
    expect(disagreements).toEqual([]);
    expect(n).toBeGreaterThan(0);
  });
});
