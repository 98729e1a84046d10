import type { FlowPredicate } from '../../shared/model/flow';
import { compileLinearRegex } from '../../shared/model/regex';
import { lookup, type TemplateScope } from './template';

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);

/** Whether a rule's test holds for the state and input. */
export function testPredicate(p: FlowPredicate, scope: TemplateScope): boolean {
  const { found, value } = lookup(p.path, scope);
  switch (p.op) {
    case 'exists':
      return found && value !== null && value !== undefined;
    case 'not_exists':
      return !found || value === null || value === undefined;
    case 'truthy':
      return found && Boolean(value) && value !== 'false';
    case 'falsy':
      return !found || !value || value === 'false';
    case 'eq':
      return found && JSON.stringify(value) === JSON.stringify(p.value);
    case 'neq':
      return !found || JSON.stringify(value) !== JSON.stringify(p.value);
    case 'gt':
      return found && num(value) > num(p.value);
    case 'gte':
      return found && num(value) >= num(p.value);
    case 'lt':
      return found && num(value) < num(p.value);
    case 'lte':
      return found && num(value) <= num(p.value);
    case 'contains':
      return found && (Array.isArray(value) ? value.some((v) => JSON.stringify(v) === JSON.stringify(p.value)) : String(value).includes(String(p.value)));
    case 'not_contains':
      return !found || !(Array.isArray(value) ? value.some((v) => JSON.stringify(v) === JSON.stringify(p.value)) : String(value).includes(String(p.value)));
    case 'matches':
      try {
        return found && compileLinearRegex(String(p.value)).test(typeof value === 'string' ? value : JSON.stringify(value));
      } catch {
        return false;
      }
  }
}

export function describePredicate(p: FlowPredicate): string {
  return p.value === undefined ? `${p.path} ${p.op}` : `${p.path} ${p.op} ${JSON.stringify(p.value)}`;
}
