import type { MethodTemplate } from '../../commands/flow/defaultBody';

/** Drag-and-drop payload type from the flow palette to the flow canvas. */
export const FLOW_PALETTE_MIME = 'application/x-crewdeck-method';

export const FLOW_PALETTE_ITEMS: { template: MethodTemplate; label: string; hint: string }[] = [
  { template: 'llm', label: 'Model call', hint: 'A prompt to a model; its answer is the output' },
  { template: 'agent', label: 'Agent', hint: 'One agent works on a prompt, with its tools' },
  { template: 'crew', label: 'Crew', hint: 'Runs a crew file of the workspace' },
  { template: 'human_feedback', label: 'Human review', hint: 'Pauses the run until a person answers' },
  { template: 'script', label: 'Script', hint: 'Sandboxed JavaScript over state and input' },
  { template: 'set_state', label: 'Set state', hint: 'Writes fields of the flow state from templates' },
  { template: 'router', label: 'Router', hint: 'Rules choose a route: yes or no' },
];
