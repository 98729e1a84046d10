import { readFileSync } from 'node:fs';
import type { Agent } from '../../shared/model/crew';
import { errorMessage } from '../errors';
import { resolveInWorkspace } from '../tools/workspacePath';
import { parseSkillFile } from './parseSkillFile';
import type { Skill } from './skill';

/** A skill the document names cannot be used: its file is missing, unreadable, empty or outside the workspace. */
export class SkillUnavailable extends Error {
  override name = 'SkillUnavailable';
  constructor(
    /** Where in the document: `agents.0.skills.1`. */
    readonly path: string,
    readonly agentId: string,
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${path}: skill file "${file}" of agent "${agentId}" ${problem}`);
  }
}

/**
 * An agent's skills, read before the run opens (files are read synchronously, once). Throws
 * SkillUnavailable for a file that cannot be used, or for two skills with the same name.
 */
export function resolveAgentSkills(workspace: string, agent: Pick<Agent, 'id' | 'skills'>, agentIndex: number): Skill[] {
  const skills: Skill[] = [];
  (agent.skills ?? []).forEach((ref, i) => {
    const where = `agents.${agentIndex}.skills.${i}`;
    let skill: Skill;
    if (typeof ref === 'string') {
      let text: string;
      try {
        text = readFileSync(resolveInWorkspace(workspace, ref), 'utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const problem = code === 'ENOENT' ? 'was not found' : code === 'EISDIR' ? 'is a folder' : `cannot be used: ${errorMessage(error).replace(/file tools can only use/, 'skills can only use')}`;
        throw new SkillUnavailable(where, agent.id, ref, problem);
      }
      skill = parseSkillFile(text, ref);
      if (skill.instructions === '') throw new SkillUnavailable(where, agent.id, ref, 'has no instructions');
    } else {
      skill = { name: ref.name, description: ref.description, instructions: ref.instructions, origin: 'inline' };
    }
    const twin = skills.find((s) => s.name.toLowerCase() === skill.name.toLowerCase());
    if (twin) {
      throw new SkillUnavailable(where, agent.id, skill.origin, `is named "${skill.name}", like another skill of the agent (${twin.origin}); skill names must differ`);
    }
    skills.push(skill);
  });
  return skills;
}
