/** Calls dropped on purpose (print, logging): counted in the reading, never a step. */
export const DROPPED = /^(print|logger\.\w+|logging\.\w+|log\.\w+|console\.print)\s*\(/;
