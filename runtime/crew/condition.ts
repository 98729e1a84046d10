import type { TaskCondition } from '../../shared/model/condition';
import { compileLinearRegex } from '../../shared/model/regex';
import { ConditionFailed } from '../errors';
import { runScript } from '../script/sandbox';
import { readJson } from '../reading/jsonValue';

/** Decides whether a conditional task runs, from the previous task's output. */
export async function evaluateCondition(condition: TaskCondition, previous: string): Promise<boolean> {
  switch (condition.type) {
    case 'contains':
      return previous.includes(condition.text);
    case 'not_contains':
      return !previous.includes(condition.text);
    case 'regex':
      return compileLinearRegex(condition.pattern, condition.flags).test(previous);
    case 'json_field':
      return compareField(condition, previous);
    case 'script': {
      const parsed = readJson(previous);
      let result: unknown;
      try {
        result = await runScript(condition.code, { output: previous, json: parsed.ok ? parsed.value : null });
      } catch (error) {
        throw new ConditionFailed(`condition script failed: ${(error as Error).message}`);
      }
      if (typeof result !== 'boolean') throw new ConditionFailed(`condition script must return true or false, not ${JSON.stringify(result)}`);
      return result;
    }
  }
}

export function describeCondition(condition: TaskCondition): string {
  switch (condition.type) {
    case 'contains':
      return `previous output contains "${condition.text}"`;
    case 'not_contains':
      return `previous output does not contain "${condition.text}"`;
    case 'regex':
      return `previous output matches /${condition.pattern}/${condition.flags ?? ''}`;
    case 'json_field':
      return `previous output's ${condition.path} ${condition.op}${condition.value === undefined ? '' : ` ${JSON.stringify(condition.value)}`}`;
    case 'script':
      return 'condition script returns true';
  }
}

function compareField(condition: Extract<TaskCondition, { type: 'json_field' }>, previous: string): boolean {
  const parsed = readJson(previous);
  const value = parsed.ok ? readPath(parsed.value, condition.path) : undefined;
  const expected = condition.value;
  switch (condition.op) {
    case 'exists':
      return value !== undefined;
    case 'not_exists':
      return value === undefined;
    case 'eq':
      return JSON.stringify(value) === JSON.stringify(expected);
    case 'neq':
      return JSON.stringify(value) !== JSON.stringify(expected);
    case 'gt':
      return typeof value === 'number' && typeof expected === 'number' && value > expected;
    case 'gte':
      return typeof value === 'number' && typeof expected === 'number' && value >= expected;
    case 'lt':
      return typeof value === 'number' && typeof expected === 'number' && value < expected;
    case 'lte':
      return typeof value === 'number' && typeof expected === 'number' && value <= expected;
  }
}

function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
