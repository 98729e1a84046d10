import { CommandRejected, type FlowCommand } from '../command';
import { withPatch } from '../crewDraft';
import { sameValue } from '../sameValue';
import { isStart, methodIndexOf, methodsOf, triggerOf } from './flowDraft';

/**
 * Sets a method's trigger: `{ start: true }`, `{ listen: condition }`, or a start that also listens
 * (`{ start: true, listen: condition }`, CrewAI's `@start("retry")`). Making the only start method a
 * plain listener is refused.
 */
export function setTrigger(nodeId: string, trigger: { start: true } | { listen: unknown } | { start: true; listen: unknown }, options: { coalesceKey?: string } = {}): FlowCommand {
  return {
    kind: 'flow',
    label: 'listen' in trigger ? 'Edit listen condition' : 'Make start method',
    coalesceKey: options.coalesceKey,
    perform(flow) {
      const index = methodIndexOf(flow, nodeId);
      const methods = methodsOf(flow);
      const method = methods[index];
      if (method === undefined) return flow;
      if (sameValue(triggerOf(method), trigger)) return flow;
      if (!('start' in trigger) && isStart(method) && methods.filter(isStart).length <= 1) {
        throw new CommandRejected('This is the only start method; a flow needs one. Make another method a start method first.');
      }
      return { ...flow, methods: methods.map((m, i) => (i === index ? withPatch(m, { trigger }) : m)) };
    },
  };
}
