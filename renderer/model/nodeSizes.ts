/** Sizes the canvas draws nodes at before they are measured (CSS keeps widths fixed at these). */
export const NODE_SIZE = {
  agent: { width: 240, height: 96 },
  task: { width: 272, height: 112 },
  manager: { width: 240, height: 84 },
} as const;

export type NodeKind = keyof typeof NODE_SIZE;
export type Size = { width: number; height: number };
