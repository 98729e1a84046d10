import type { FlowDocumentInput } from '../../../shared/model/flow';
import { methodNodeId } from '../../model/nodeIds';
import { isRecord, type CrewDraft } from '../crewDraft';
import { WrongDocumentKind } from '../documentKind';

/**
 * A flow document as the editor holds it: the JSON as saved, which may not validate. Like crew drafts,
 * readers check types before use and commands return new objects. Its `kind` tells it from a crew
 * (`DocumentDraft`); flow commands take and return a `FlowDraft` (`FlowCommand`).
 */
export type MethodDraft = Record<string, unknown>;
export type FlowDraft = Omit<Partial<FlowDocumentInput>, 'kind' | 'methods'> & { kind: 'flow'; methods?: MethodDraft[] } & NoCrewFields & Record<string, unknown>;

/** What only a crew has (agents, tasks, process, memory…): a flow has none of it. */
type NoCrewFields = { [K in Exclude<keyof CrewDraft, keyof FlowDocumentInput>]?: never };

/** Whether a document (as saved, possibly invalid) is a flow (`kind: "flow"`) rather than a crew. */
export function isFlowDraft(doc: unknown): doc is FlowDraft {
  return typeof doc === 'object' && doc !== null && 'kind' in doc && doc.kind === 'flow';
}

/** The open document as a flow, for views that only show flows; throws `WrongDocumentKind` for a crew. */
export function asFlow(doc: CrewDraft | FlowDraft): FlowDraft {
  if (!isFlowDraft(doc)) throw new WrongDocumentKind('flow', 'crew', 'This view');
  return doc;
}

export function methodsOf(doc: FlowDraft): MethodDraft[] {
  return Array.isArray(doc.methods) ? doc.methods.map((m) => (isRecord(m) ? m : {})) : [];
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The key of each method in canvas ids, by array index: its id, or `#<index>` when it has no usable id
 * or repeats an earlier one (`#` is not allowed in ids, so these never collide).
 */
export function methodKeys(doc: FlowDraft): string[] {
  return keyedMethods(doc).map((m) => m.key);
}

/** Each method with its key (as `methodKeys` gives it), in array order. */
export function keyedMethods(doc: FlowDraft): { method: MethodDraft; key: string }[] {
  const seen = new Set<string>();
  return methodsOf(doc).map((method, index) => {
    const id = str(method.id);
    if (id && !seen.has(id)) {
      seen.add(id);
      return { method, key: id };
    }
    return { method, key: `#${index}` };
  });
}

export function methodNodeIds(doc: FlowDraft): string[] {
  return methodKeys(doc).map(methodNodeId);
}

/** The array index of the method drawn as `nodeId`, or -1. */
export function methodIndexOf(doc: FlowDraft, nodeId: string): number {
  return methodNodeIds(doc).indexOf(nodeId);
}

/** The index of the method with this key (id or `#index`), or -1. */
export function methodIndexByKey(doc: FlowDraft, key: string): number {
  return methodKeys(doc).indexOf(key);
}

export function routesOf(method: MethodDraft): string[] {
  return Array.isArray(method.routes) ? method.routes.filter((r): r is string => typeof r === 'string') : [];
}

export function triggerOf(method: MethodDraft): Record<string, unknown> {
  return isRecord(method.trigger) ? method.trigger : {};
}

export const isStart = (method: MethodDraft) => triggerOf(method).start === true;
export const hasListen = (method: MethodDraft) => 'listen' in triggerOf(method);

export function bodyOf(method: MethodDraft): Record<string, unknown> {
  return isRecord(method.body) ? method.body : {};
}

/** The document with method `index` replaced. */
export function withMethod(doc: FlowDraft, index: number, method: MethodDraft): FlowDraft {
  const methods = methodsOf(doc).slice();
  methods[index] = method;
  return { ...doc, methods };
}
