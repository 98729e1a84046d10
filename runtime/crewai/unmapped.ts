/** Something in a CrewAI project (or a Crewdeck crew) that the other side has no equivalent for. */
export interface UnmappedItem {
  /** Where it is: a project file (with line when known), or a path in the crew document. */
  path: string;
  /** What it is, e.g. `researcher.tools: MyCustomTool()` or `guardrail (regex)`. */
  item: string;
  /** Why it was not carried over, and what to do instead when there is something. */
  why: string;
}
