import { describe, expect, it } from 'vitest';
import { flowWarnings, startInputProblems } from '../../shared/model/flowChecks';
import { parseFlowDocument } from '../../shared/model/parse';

const flow = (methods: unknown[]) => ({ kind: 'flow', version: 1, id: 'f', name: 'F', methods });

describe('{input} in a start method is a problem of the document', () => {
  it('names each template field that reads it; listeners, scripts and rules on input are fine', () => {
    const methods = [
      { id: 'a', name: 'a', trigger: { start: true }, body: { type: 'for_each', items: '["x"]', into: 'out', body: { type: 'llm', prompt: 'about {input.topic}' } } },
      { id: 'b', name: 'b', trigger: { start: true, listen: 'a' }, body: { type: 'human_feedback', message: 'Check {input}' } },
      { id: 'c', name: 'c', trigger: { start: true }, routes: ['y', 'n'], body: { type: 'rules', rules: [{ when: { path: 'input', op: 'truthy' }, route: 'y' }], default: 'n' } },
      { id: 'd', name: 'd', trigger: { start: true }, body: { type: 'script', code: 'return input;' } },
      { id: 'e', name: 'e', trigger: { listen: 'a' }, body: { type: 'llm', prompt: 'Summarise {input}' } },
    ];
    expect(startInputProblems(methods)).toEqual([
      { path: ['methods', 0, 'body', 'body', 'prompt'], message: expect.stringMatching(/^\{input\.topic\} has no value in a start method: use/) },
      { path: ['methods', 1, 'body', 'message'], message: expect.stringContaining('(at the start nothing triggered it yet)') },
    ]);
    const parsed = parseFlowDocument(flow(methods));
    expect(parsed.ok ? [] : parsed.problems.map((p) => p.path)).toEqual(['methods.0.body.body.prompt', 'methods.1.body.message']);
  });
});

describe('flow warnings: what runs but is probably not meant', () => {
  it('a method no start leads to, and a route nobody listens to; an "and" needs all of its members', () => {
    const methods = [
      { id: 's', name: 's', trigger: { start: true }, routes: ['go', 'stop'], body: { type: 'rules', rules: [], default: 'go' } },
      { id: 'g', name: 'g', trigger: { listen: { route: 'go' } }, body: { type: 'script', code: 'return 1;' } },
      { id: 'loop', name: 'loop', trigger: { listen: 'orphan' }, body: { type: 'script', code: 'return 1;' } },
      { id: 'orphan', name: 'orphan', trigger: { listen: 'loop' }, body: { type: 'script', code: 'return 1;' } },
      { id: 'both', name: 'both', trigger: { listen: { and: ['g', 'loop'] } }, body: { type: 'script', code: 'return 1;' } },
      { id: 'either', name: 'either', trigger: { listen: { or: ['g', 'loop'] } }, body: { type: 'script', code: 'return 1;' } },
    ];
    expect(flowWarnings(flow(methods))).toEqual([
      { path: 'methods.0.routes.1', message: 'route "stop" has no listener: choosing it ends the flow there' },
      { path: 'methods.2.trigger', message: 'never runs: no start method leads to what it listens to' },
      { path: 'methods.3.trigger', message: 'never runs: no start method leads to what it listens to' },
      { path: 'methods.4.trigger', message: 'never runs: no start method leads to what it listens to' },
    ]);
  });
});
