import { isRecord } from '../../commands/crewDraft';

const MAX = 80;

const oneLine = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX ? `${flat.slice(0, MAX - 1).trimEnd()}…` : flat;
};

/** One line saying what a method's body does, for its node. */
export function bodySummary(body: unknown): string {
  if (!isRecord(body)) return 'no body';
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (body.type) {
    case 'crew':
      return oneLine(s(body.file) || 'no crew file');
    case 'agent': {
      const role = isRecord(body.agent) ? s(body.agent.role) : '';
      return oneLine(`${role ? `${role}: ` : ''}${s(body.prompt)}`);
    }
    case 'llm':
      return oneLine(s(body.prompt));
    case 'for_each': {
      const inner = isRecord(body.body) ? body.body : {};
      const what = inner.type === 'crew' ? s(inner.file) : inner.type === 'agent' && isRecord(inner.agent) ? s(inner.agent.role) : s(inner.type);
      return oneLine(`each of ${s(body.items) || '?'} → ${what || '?'} → state.${s(body.into) || '?'}`);
    }
    case 'human_feedback':
      return oneLine(s(body.message));
    case 'script': {
      const line = s(body.code)
        .split('\n')
        .map((l) => l.trim())
        .find((l) => l && !l.startsWith('//'));
      return oneLine(line ?? 'empty script');
    }
    case 'set_state': {
      const set = isRecord(body.set) ? Object.keys(body.set) : [];
      return set.length ? oneLine(`set ${set.join(', ')}`) : 'sets nothing';
    }
    case 'rules': {
      const n = Array.isArray(body.rules) ? body.rules.length : 0;
      return `${n} rule${n === 1 ? '' : 's'}, otherwise → ${s(body.default) || '?'}`;
    }
    default:
      return `unknown body "${String(body.type)}"`;
  }
}
