import { isRecord } from '../commands/crewDraft';

const OPS: Record<string, string> = { eq: '=', neq: '≠', gt: '>', gte: '≥', lt: '<', lte: '≤', exists: 'exists', not_exists: 'missing' };

/** A short reading of a task condition for the node badge ("if contains "yes""). */
export function conditionLabel(condition: unknown): string | undefined {
  if (condition === undefined) return undefined;
  if (!isRecord(condition)) return 'if …';
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (condition.type) {
    case 'contains':
      return `if contains "${text(condition.text)}"`;
    case 'not_contains':
      return `unless contains "${text(condition.text)}"`;
    case 'regex':
      return `if /${text(condition.pattern)}/${text(condition.flags)}`;
    case 'json_field': {
      const op = OPS[text(condition.op)] ?? text(condition.op);
      const value = condition.op === 'exists' || condition.op === 'not_exists' ? '' : ` ${JSON.stringify(condition.value ?? null)}`;
      return `if ${text(condition.path)} ${op}${value}`;
    }
    case 'script':
      return 'if script';
    default:
      return 'if …';
  }
}
