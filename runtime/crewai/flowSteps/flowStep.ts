import type { FlowBody } from '../../../shared/model/flow';

/**
 * One Crewdeck method body read from (part of) a CrewAI Flow method. A Python method that does several
 * things (kick off a crew, then set state, then choose a route) becomes a chain of steps, the last one
 * carrying the method's name so its listeners stay as they are.
 */
export interface FlowStep {
  body: FlowBody;
  /** The method name this step needs (a feedback step whose answer later steps read by its state field). */
  name?: string;
  routes?: string[];
  outputFile?: string;
  /**
   * A router's early guard (`if …: return "label"` before the rest of the method): the route it takes
   * when no guard holds. The next step listens to this route, not to the guard's name, so the rest of
   * the method runs only when no guard returned.
   */
  continueRoute?: string;
}

/** A crew kicked off by name; `file` is filled in by the caller. */
export type CrewRef = { className: string; line: number };

export interface MethodReading {
  steps: FlowStep[];
  description?: string;
  /** Crew classes the steps kick off, by the crew bodies' `file` placeholder (`crew:<Class>`). */
  crews: CrewRef[];
  /** A part that could not be mapped: the whole method becomes a stub. */
  unsupported?: { line: number; python: string; why: string };
  /** Things dropped on purpose (print, logging). */
  dropped: number;
}
