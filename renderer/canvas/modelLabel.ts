import { isRecord } from '../commands/crewDraft';

/** How a ModelRef reads on a node: a profile name, `provider · model`, or the workspace default. */
export function modelLabel(llm: unknown): string {
  if (typeof llm === 'string' && llm) return llm;
  if (isRecord(llm)) {
    const model = typeof llm.model === 'string' && llm.model ? llm.model : '?';
    return llm.provider === 'scripted' ? `scripted · ${model}` : model;
  }
  return 'default model';
}
