import type { HostChannel, HostRequest, HostResponse } from '../../../shared/host-api';
import { parseFlowDocument } from '../../../shared/model/parse';
import type { CrewDraft } from '../../../renderer/commands/crewDraft';
import { MemoryHost } from '../document/memoryHost';

/**
 * A review loop with every trigger shape: a start method, a router with two routes, a listener of a
 * route, an `or` of a method and a route, and an `and` with a nested `or`.
 */
export function reviewFlow(): CrewDraft {
  const flow = {
    kind: 'flow',
    version: 1,
    id: 'review-loop',
    name: 'Review loop',
    state: { initial: { draft: '' } },
    methods: [
      { id: 'write', name: 'write', trigger: { start: true }, body: { type: 'llm', prompt: 'Write about {state.topic}' } },
      {
        id: 'check',
        name: 'check',
        trigger: { listen: 'write' },
        routes: ['good', 'bad'],
        body: { type: 'rules', rules: [{ when: { path: 'input', op: 'contains', value: 'ok' }, route: 'good' }], default: 'bad' },
      },
      { id: 'fix', name: 'fix', trigger: { listen: { route: 'bad' } }, body: { type: 'script', code: 'return input + "!";' } },
      { id: 'notify', name: 'notify', trigger: { listen: { or: ['fix', { route: 'good' }] } }, body: { type: 'set_state', set: { last: '{input}' } } },
      { id: 'publish', name: 'publish', trigger: { listen: { and: ['notify', { or: ['write', 'fix'] }] } }, body: { type: 'llm', prompt: 'Publish {input}' } },
    ],
  };
  return flow as unknown as CrewDraft;
}

/** MemoryHost, validating flows like the real host does. */
export class FlowHost extends MemoryHost {
  override async invoke<C extends HostChannel>(channel: C, request: HostRequest<C>): Promise<HostResponse<C>> {
    const response = await super.invoke(channel, request);
    if (channel !== 'documents.read' && channel !== 'documents.save') return response;
    const req = request as { path: string; document?: unknown };
    const document = channel === 'documents.save' ? req.document : JSON.parse(this.files.get(req.path) ?? 'null');
    const parsed = parseFlowDocument(document);
    return { ...response, problems: parsed.ok ? [] : parsed.problems } as HostResponse<C>;
  }
}
