import { isRecord } from '../commands/crewDraft';

/** What a node says when it names no model: the workspace's default profile runs it. */
export const DEFAULT_MODEL_LABEL = 'default model';

/**
 * How a ModelRef reads on a node: a profile name, the model, or the workspace default. A scripted
 * model says so (SPEC §9: it is a demo, not a real model).
 */
export function modelLabel(llm: unknown): string {
  if (typeof llm === 'string' && llm) return llm;
  if (isRecord(llm)) {
    const model = typeof llm.model === 'string' && llm.model ? llm.model : '?';
    return llm.provider === 'scripted' ? `${model} · scripted demo model` : model;
  }
  return DEFAULT_MODEL_LABEL;
}
