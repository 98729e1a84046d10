/** Gaps both auto-layout engines use, so their results compare like for like. */
export const LAYOUT_SPACING = {
  /** Between the tasks column and the agents column. */
  rank: 140,
  /** Between two nodes of a column. */
  node: 28,
  /** Between the manager and the agents below it. */
  manager: 56,
  margin: 40,
} as const;
