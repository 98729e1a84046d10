/** A named block of instructions an agent can load when it needs them (SPEC: skills). */
export interface Skill {
  name: string;
  description: string;
  instructions: string;
  /** Where it came from: the workspace path of its .md file, or "inline". */
  origin: string;
}
