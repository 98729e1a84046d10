import { matchName } from '../agent/fuzzyMatch';
import { skillList } from '../agent/prompt';
import type { ToolUse } from '../tools/policyGate';
import { defineTool, ToolError } from '../tools/tool';
import type { Skill } from './skill';

export const LOAD_SKILL = 'load_skill';

/**
 * The `load_skill` tool of an agent with skills (none without): returns a skill's instructions; an
 * unknown name gets an observation listing the skills there are. Used through the policy gate like
 * every tool.
 */
export function loadSkillTools(skills: Skill[]): ToolUse[] {
  if (skills.length === 0) return [];
  const names = skills.map((s) => s.name);
  const tool = defineTool({
    name: LOAD_SKILL,
    description: `Load the full instructions of one of your skills before you use it. Your skills: ${names.map((n) => `"${n}"`).join(', ')}.`,
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', description: `The skill's name, one of ${names.map((n) => `"${n}"`).join(', ')}` } },
      required: ['name'],
      additionalProperties: false,
    },
    execute: async (args) => {
      const requested = String(args.name);
      const skill = matchName(requested, skills, (s) => s.name);
      if (!skill) throw new ToolError(`there is no skill "${requested}". Your skills are:\n${skillList(skills)}`);
      return `Skill "${skill.name}" instructions:\n${skill.instructions}`;
    },
  });
  return [{ tool }];
}
